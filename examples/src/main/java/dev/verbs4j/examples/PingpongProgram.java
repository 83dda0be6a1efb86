package dev.verbs4j.examples;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CommonOptions;

import dev.verbs4j.examples.PingpongOptions.Flavor;
import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.AddressHandle;
import dev.verbs4j.verbs.AddressVector;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.DeviceAttributes;
import dev.verbs4j.verbs.GidChooser;
import dev.verbs4j.verbs.InitAttributes;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PathMtu;
import dev.verbs4j.verbs.PortAttributes;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpCapabilities;
import dev.verbs4j.verbs.QpInitAttributes;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.RtrAttributes;
import dev.verbs4j.verbs.RtsAttributes;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.Verbs;
import java.lang.foreign.Arena;
import picocli.CommandLine;
import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * ibv_rc_pingpong and ibv_ud_pingpong: one program with the two transports' differences (QP type
 * and transitions, UD's address handle, Q_Key and 40-byte GRH in front of received data).
 */
final class PingpongProgram {
    /** The Q_Key ud_pingpong sets at INIT and puts in every send. */
    static final int UD_QKEY = 0x11111111;

    private final PingpongOptions o;
    private final boolean ud;
    private final Duration timeout;

    private QueuePair qp;
    private ProtectionDomain pd;
    private PreparedSend send;
    private AddressHandle addressHandle;
    private int psn;
    /** RDMA READs in flight (RTR and RTS): 1 as ibv_rc_pingpong asks, 0 on a device that takes none. */
    private int readDepth = 1;

    private PingpongProgram(PingpongOptions o) {
        this.o = o;
        this.ud = o.flavor == Flavor.UD;
        this.timeout = Duration.ofSeconds(o.timeoutSeconds);
    }

    static void main(Flavor flavor, String[] args) {
        System.exit(execute(flavor, args));
    }

    /** The whole program without the exit: its status. */
    static int execute(Flavor flavor, String[] args) {
        CommonOptions.configure(0);
        CommandLine cl = PingpongOptions.commandLine(flavor);
        cl.setExecutionStrategy(parsed -> {
            if (cl.isUsageHelpRequested()) {
                cl.usage(cl.getOut());
                return 0;
            }
            PingpongOptions o = PingpongOptions.fromCommandLine(cl);
            try {
                return new PingpongProgram(o).run();
            } catch (Exception e) {
                System.out.flush();
                System.err.println("verbs4j " + flavor.command + ": " + Cli.message(e));
                return 1;
            } finally {
                System.out.flush();
            }
        });
        return cl.execute(args);
    }

    private int run() throws Exception {
        try (Context ctx = open(o.device)) {
            PortAttributes port = ctx.queryPort(o.ibPort);
            if (ud && o.size > PortAttributes.mtuBytes(port.activeMtu())) {
                throw new IllegalArgumentException("Requested size larger than port MTU ("
                        + PortAttributes.mtuBytes(port.activeMtu()) + ")");
            }
            // UD receives land 40 bytes of GRH first; sends go out from just behind it
            long sendOffset = ud ? AddressHandle.GRH_BYTES : 0;
            int receiveLength = ud ? o.size + AddressHandle.GRH_BYTES : o.size;
            try (Arena arena = Arena.ofShared();
                 CompletionChannel channel = o.events ? ctx.createCompletionChannel() : null;
                 ProtectionDomain pd = ctx.allocateProtectionDomain()) {
                this.pd = pd;
                MemorySegment buffer = arena.allocate(receiveLength, PagePattern.PAGE_SIZE);
                buffer.fill((byte) 0x7b);
                try (MemoryRegion mr = pd.register(buffer, EnumSet.of(Access.LOCAL_WRITE));
                     CompletionQueue cq = channel != null ? ctx.createCompletionQueue(o.rxDepth + 1, channel, 0)
                             : ctx.createCompletionQueue(o.rxDepth + 1);
                     QueuePair qp = pd.createQueuePair(QpInitAttributes.builder(ud ? QpType.UD : QpType.RC, cq)
                             .capabilities(new QpCapabilities(1, o.rxDepth, 1, 1, 0)).build());
                     PreparedReceive receives = qp.prepareReceive(o.rxDepth, 1);
                     PreparedSend send = qp.prepareSend(1, 1)) {
                    this.qp = qp;
                    this.send = send;
                    qp.toInit(ud ? InitAttributes.datagram(o.ibPort, UD_QKEY) : InitAttributes.connected(o.ibPort, Set.of()));
                    for (int i = 0; i < o.rxDepth; i++) {
                        receives.wrId(i, PingpongRun.RECV_WRID).sge(i, 0, mr, 0, receiveLength);
                    }
                    send.wrId(PingpongRun.SEND_WRID).sge(0, 0, mr, sendOffset, o.size);
                    int flags = SendFlag.SIGNALED.bit();
                    if (qp.capabilities().maxInlineData() >= o.size) {
                        flags |= SendFlag.INLINE.bit();
                    }
                    send.flags(0, flags);
                    try {
                        return exchangeAndRun(ctx, port, cq, channel, receives, buffer, sendOffset);
                    } finally {
                        if (addressHandle != null) {
                            addressHandle.close();
                        }
                    }
                }
            }
        }
    }

    private int exchangeAndRun(Context ctx, PortAttributes port, CompletionQueue cq, CompletionChannel channel,
                               PreparedReceive receives, MemorySegment buffer, long sendOffset) throws Exception {
        PingpongRun run = new PingpongRun(cq, channel, send, receives, o.rxDepth, o.iters, timeout);
        run.postInitialReceives();
        // QEMU's emulated PVRDMA reports max_qp_rd_atom 0; rdma-core's tool asks for 1 regardless
        DeviceAttributes device = ctx.queryDevice();
        readDepth = Math.min(readDepth, Math.min(device.maxQpRdAtom(), device.maxQpInitRdAtom()));
        if (port.linkLayer() != PortAttributes.LINK_LAYER_ETHERNET && port.lid() == 0) {
            throw new IllegalStateException("Couldn't get local LID (port " + o.ibPort + " is not up?)");
        }
        byte[] gid = o.gidIndex >= 0 ? ctx.chooseGid(o.ibPort, GidChooser.index(o.gidIndex)).gid() : new byte[16];
        if (o.gidIndex < 0 && port.linkLayer() == PortAttributes.LINK_LAYER_ETHERNET) {
            System.err.println("verbs4j " + o.flavor.command + ": warning: port " + o.ibPort + " of " + ctx.name()
                    + " is RoCE; without -g <gid index> the peer cannot reach this side");
        }
        psn = new SecureRandom().nextInt() & 0xffffff;
        PingpongAddress mine = new PingpongAddress(port.lid(), qp.number(), psn, gid);
        System.out.println(mine.describe("local address: ", ud ? ":" : ","));
        PingpongAddress remote;
        if (o.isClient()) {
            remote = PingpongExchange.client(o.serverName, o.port, mine, timeout);
        } else {
            remote = PingpongExchange.server(o.port, mine, this::connect, timeout);
        }
        System.out.println(remote.describe("remote address:", ","));
        if (o.isClient()) {
            connect(remote);
        }
        if (o.isClient() && o.check) {
            PagePattern.mark(buffer, sendOffset, o.size);
        }
        run.start(o.isClient());
        long micros = run.run();
        System.out.println(PingpongReport.bytesLine(o.size, o.iters, micros));
        System.out.println(PingpongReport.itersLine(o.iters, micros));
        if (o.isClient() && o.check) {
            List<Integer> bad = PagePattern.invalidPages(buffer, sendOffset, o.size);
            for (int page : bad) {
                System.out.println("invalid data in page " + page);
            }
        }
        return 0;
    }

    /** pp_connect_ctx: RTR and RTS toward the peer (and, for UD, its address handle). */
    private void connect(PingpongAddress remote) {
        AddressVector.Builder av = AddressVector.builder().destLid(remote.lid()).serviceLevel(o.serviceLevel)
                .port(o.ibPort);
        if (remote.hasGlobalRoute()) {
            if (o.gidIndex < 0) {
                throw new IllegalArgumentException("the peer sent a GID (it routes globally, RoCE): give -g <local GID "
                        + "index> too");
            }
            av.destGid(remote.gid()).hopLimit(1).sourceGidIndex(o.gidIndex);
        }
        if (ud) {
            qp.toRtr(RtrAttributes.datagram());
            qp.toRts(RtsAttributes.withSendPsn(psn));
            addressHandle = pd.createAddressHandle(av.build());
            send.ud(0, addressHandle, remote.qpn(), UD_QKEY);
            return;
        }
        qp.toRtr(RtrAttributes.builder().remote(av.build()).pathMtu(pathMtu(o.mtu)).destQpNumber(remote.qpn())
                .rqPsn(remote.psn()).maxDestRdAtomic(readDepth).minRnrTimer(12).build());
        qp.toRts(RtsAttributes.builder().sqPsn(psn).timeout(14).retryCount(7).rnrRetry(7).maxRdAtomic(readDepth)
                .build());
    }

    private static PathMtu pathMtu(int bytes) {
        for (PathMtu m : PathMtu.values()) {
            if (m.bytes() == bytes) {
                return m;
            }
        }
        throw new IllegalArgumentException("no path MTU of " + bytes + " bytes");
    }

    private static Context open(String device) {
        if (device != null) {
            return Verbs.open(device);
        }
        return Verbs.openFirst().orElseThrow(() -> new IllegalStateException(
                "No IB devices found (this host has no RDMA device; run in the soft-RoCE rig: ci/rig run ...)"));
    }
}
