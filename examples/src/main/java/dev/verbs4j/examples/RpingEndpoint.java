package dev.verbs4j.examples;

import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CmEvent;
import dev.verbs4j.verbs.CmEventType;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpCapabilities;
import dev.verbs4j.verbs.QpInitAttributes;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.SendOpcode;
import dev.verbs4j.verbs.WcOpcode;
import dev.verbs4j.verbs.WcStatus;
import dev.verbs4j.verbs.WorkCompletions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * One end of an rping connection with rping's resources: a CQ of 32 on a completion channel, an
 * RC QP (16 sends, 2 receives), a 16-byte receive and send buffer for the control messages and
 * the {@code -S} sized RDMA buffer (plus, on the client, the start buffer the server reads).
 * Waits multiplex the CQ and the connection's CM events, each bounded by the timeout.
 */
final class RpingEndpoint implements AutoCloseable {
    private static final int CQ_DEPTH = 16 * 2;
    private static final Set<Access> RDMA_ACCESS = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ,
            Access.REMOTE_WRITE);
    private static final Duration CQ_SLICE = Duration.ofMillis(50);
    private static final Duration CM_SLICE = Duration.ofMillis(1);

    /** The peer disconnected: for the server the normal end of a run. */
    static final class Disconnected extends Exception {
        Disconnected() {
            super("DISCONNECT EVENT");
        }
    }

    final CmId id;
    final int size;
    private final Duration timeout;
    private final Arena arena = Arena.ofShared();
    private final ProtectionDomain pd;
    private final CompletionChannel channel;
    private final CompletionQueue cq;
    private final QueuePair qp;
    final MemoryRegion recvMr;
    final MemoryRegion sendMr;
    final MemoryRegion rdmaMr;
    final MemoryRegion startMr;
    private final PreparedReceive receive;
    private final PreparedSend control;
    private final PreparedSend rdma;
    private final WorkCompletions wc = new WorkCompletions(1);

    RpingEndpoint(CmId id, int size, boolean client, Duration timeout) {
        this.id = id;
        this.size = size;
        this.timeout = timeout;
        Context ctx = id.context();
        pd = ctx.allocateProtectionDomain();
        channel = ctx.createCompletionChannel();
        cq = ctx.createCompletionQueue(CQ_DEPTH, channel, 0);
        cq.requestNotification(false);
        qp = id.createQueuePair(pd, QpInitAttributes.builder(QpType.RC, cq)
                .capabilities(new QpCapabilities(16, 2, 1, 1, 0)).build());
        recvMr = pd.register(arena.allocate(RpingMessages.INFO_SIZE, 8), EnumSet.of(Access.LOCAL_WRITE));
        sendMr = pd.register(arena.allocate(RpingMessages.INFO_SIZE, 8), Set.of());
        rdmaMr = pd.register(arena.allocate(size, 8), RDMA_ACCESS);
        startMr = client ? pd.register(arena.allocate(size, 8), RDMA_ACCESS) : null;
        receive = qp.prepareReceive(1, 1).sge(0, 0, recvMr, 0, RpingMessages.INFO_SIZE);
        control = qp.prepareSend(1, 1).opcode(0, SendOpcode.SEND).sge(0, 0, sendMr, 0, RpingMessages.INFO_SIZE)
                .flags(0, SendFlag.SIGNALED.bit());
        rdma = qp.prepareSend(1, 1).flags(0, SendFlag.SIGNALED.bit());
        receive.post();
    }

    /** SENDs a buffer advertisement (or, from the server, a "go ahead" whose content means nothing). */
    void sendInfo(RpingMessages.BufferInfo info) {
        MemorySegment.copy(info.encode(), 0, sendMr.memory(), ValueLayout.JAVA_BYTE, 0, RpingMessages.INFO_SIZE);
        control.post();
    }

    void sendGoAhead() {
        control.post();
    }

    /** RDMA READ {@code length} bytes of the peer's buffer into our RDMA buffer. */
    void read(RpingMessages.BufferInfo from, int length) {
        rdma.opcode(0, SendOpcode.RDMA_READ).remote(from.address(), from.rkey()).sge(0, 0, rdmaMr, 0, length);
        rdma.post();
    }

    /** RDMA WRITE the first {@code length} bytes of our RDMA buffer to the peer's buffer. */
    void write(RpingMessages.BufferInfo to, int length) {
        rdma.opcode(0, SendOpcode.RDMA_WRITE).remote(to.address(), to.rkey()).sge(0, 0, rdmaMr, 0, length);
        rdma.post();
    }

    /** Waits for the next receive, reposts the receive buffer and returns the 16-byte message. */
    RpingMessages.BufferInfo awaitReceive() throws Exception {
        int bytes = await(WcOpcode.RECV);
        byte[] message = new byte[bytes];
        MemorySegment.copy(recvMr.memory(), ValueLayout.JAVA_BYTE, 0, message, 0, Math.min(bytes, RpingMessages.INFO_SIZE));
        if (bytes != RpingMessages.INFO_SIZE) {
            throw new IllegalStateException("Received bogus data, size " + bytes);
        }
        receive.post();
        return RpingMessages.BufferInfo.decode(message);
    }

    void awaitRead() throws Exception {
        await(WcOpcode.RDMA_READ);
    }

    void awaitWrite() throws Exception {
        await(WcOpcode.RDMA_WRITE);
    }

    /**
     * Waits for the next completion of kind {@code expected}, skipping send completions as rping
     * does; returns its byte length.
     */
    private int await(WcOpcode expected) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            while (cq.poll(wc) == 1) {
                if (!wc.isSuccess(0)) {
                    WcStatus status = wc.statusEnum(0);
                    if (status == WcStatus.WR_FLUSH_ERR) {
                        throw new Disconnected();
                    }
                    throw new IllegalStateException("cq completion failed status " + wc.status(0) + " (" + status
                            + ")" + (status == WcStatus.REM_ACCESS_ERR ? ": the peer refused the RDMA access (bad rkey, "
                            + "address or length)" : ""));
                }
                WcOpcode op = wc.opcodeEnum(0);
                if (op == expected) {
                    return wc.byteLength(0);
                }
                if (op != WcOpcode.SEND) {
                    throw new IllegalStateException("expected a " + expected + " completion, got " + op);
                }
            }
            if (channel.await(CQ_SLICE) != null) {
                cq.requestNotification(false);
                continue; // poll again: completions may have come between the poll and arming
            }
            CmEvent event = id.nextEvent(CM_SLICE);
            if (event != null) {
                if (event.type() == CmEventType.DISCONNECTED) {
                    throw new Disconnected();
                }
                if (event.type().isFailure()) {
                    throw new IllegalStateException("cma event " + event.describe());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no " + expected + " completion within " + timeout.toSeconds()
                        + " s: the peer stopped answering");
            }
        }
    }

    MemorySegment rdmaBuffer() {
        return rdmaMr.memory();
    }

    MemorySegment startBuffer() {
        return startMr.memory();
    }

    RpingMessages.BufferInfo advertise(MemoryRegion mr) {
        return new RpingMessages.BufferInfo(mr.address(), mr.rkey(), size);
    }

    @Override
    public void close() {
        wc.close();
        rdma.close();
        control.close();
        receive.close();
        qp.close();
        for (MemoryRegion mr : new MemoryRegion[] {startMr, rdmaMr, sendMr, recvMr}) {
            if (mr != null) {
                mr.close();
            }
        }
        cq.close();
        channel.close();
        pd.close();
        arena.close();
    }
}
