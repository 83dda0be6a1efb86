package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;

/**
 * One end of the rig's two-netns topology seen from this JVM: a {@link NetworkNamespace} thread
 * in nsa or nsb, the namespace's rxe device opened there, a PD, a CQ and a registered buffer.
 */
final class NetnsSide implements AutoCloseable {
    static final int PORT = 1;
    static final int BUFFER_BYTES = 1 << 16;
    static final int QKEY = 0x22222222;

    final String veth;
    final NetworkNamespace ns;
    final Context ctx;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final Arena arena = Arena.ofShared();
    final MemorySegment buf;
    final MemoryRegion mr;
    final GidEntry gid;
    private final ReverseCloser toClose = new ReverseCloser();

    private NetnsSide(NetworkNamespace ns, String device, String veth, int gidIndex) throws Exception {
        this.ns = ns;
        this.veth = veth;
        this.ctx = toClose.track(ns.call(() -> Verbs.open(device)));
        gid = ctx.chooseGid(PORT, GidChooser.index(gidIndex));
        pd = track(ctx.allocateProtectionDomain());
        cq = track(ctx.createCompletionQueue(64));
        buf = arena.allocate(BUFFER_BYTES, 4096);
        mr = track(pd.register(buf, Access.ALL_REMOTE));
    }

    /** Side {@code i} (0 = nsa/rxea/n0, 1 = nsb/rxeb/n1) of the topology, as the rig exports it. */
    static NetnsSide open(int i) throws Exception {
        String[] namespaces = words("RIG_NETNS_PAIR");
        String[] devices = words("RIG_NETNS_PAIR_DEVICES");
        int gidIndex = Integer.parseInt(env("RIG_NETNS_PAIR_GID_INDEX"));
        NetworkNamespace ns = NetworkNamespace.open(namespaces[i]);
        try {
            return new NetnsSide(ns, devices[i], "n" + i, gidIndex);
        } catch (Exception | Error e) {
            ns.close();
            throw e;
        }
    }

    static String env(String name) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) {
            fail(name + " is not set: these tests need the rig's two-netns topology (ci/rig run --topology two-netns "
                    + "...); RIG_TOPOLOGY=" + System.getenv("RIG_TOPOLOGY"));
        }
        return v;
    }

    static String[] words(String name) {
        return env(name).trim().split("\\s+");
    }

    <T extends AutoCloseable> T track(T resource) {
        return toClose.track(resource);
    }

    /** A queue pair created on the namespace's thread (any thread would do: the context decides). */
    QueuePair createQueuePair(QpType type, CompletionQueue completions) throws Exception {
        return track(ns.call(() -> pd.createQueuePair(QpInitAttributes.builder(type, completions)
                .capabilities(QpCapabilities.small()).build())));
    }

    /** INIT → RTR → RTS for an RC QP talking to {@code peerQp} on {@code peer}. */
    void connect(QueuePair qp, int ourPsn, NetnsSide peer, int peerQp, int peerPsn) {
        connect(qp, peer, peerQp, peerPsn, 1, RtsAttributes.withSendPsn(ourPsn));
    }

    /**
     * As above, with our RTS attributes (send PSN, ACK timeout, retry count, READ depth) and how
     * many RDMA READs from the peer this QP serves at once.
     */
    void connect(QueuePair qp, NetnsSide peer, int peerQp, int peerPsn, int readsServed, RtsAttributes rts) {
        qp.toInit(InitAttributes.connected(PORT, EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ)));
        qp.toRtr(RtrAttributes.builder().remote(AddressVector.roce(peer.gid.gid(), gid)).pathMtu(PathMtu.MTU_1024)
                .destQpNumber(peerQp).rqPsn(peerPsn).maxDestRdAtomic(readsServed).build());
        qp.toRts(rts);
    }

    void datagram(QueuePair qp, int psn) {
        qp.toInit(InitAttributes.datagram(PORT, QKEY));
        qp.toRtr(RtrAttributes.datagram());
        qp.toRts(RtsAttributes.withSendPsn(psn));
    }

    /** {rx_packets, tx_packets} of this side's veth end, read from /proc/thread-self/net/dev on its thread. */
    long[] vethPackets() throws Exception {
        return ns.call(() -> vethPackets(veth));
    }

    private static long[] vethPackets(String veth) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/net/dev"))) {
            String[] f = line.trim().split("[:\\s]+");
            if (f[0].equals(veth)) {
                return new long[] {Long.parseLong(f[2]), Long.parseLong(f[10])};
            }
        }
        throw new IllegalStateException("no " + veth + " in this thread's /proc/thread-self/net/dev");
    }

    @Override
    public void close() {
        toClose.close();
        arena.close();
        ns.close();
    }
}
