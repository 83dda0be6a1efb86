package dev.verbs4j.benchmarks.perf;

import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.SendOpcode;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The latency loops, one message in flight at a time, as perftest's *_lat tests run them. Each
 * iteration's post time is recorded; {@link LatencyReport} turns consecutive posts into
 * latencies. Work requests are prepared once per size, so the loops allocate nothing. Send
 * completions come off the send CQ, receives off their own CQ (send_lat), as in perftest.
 */
final class LatencyRunner implements AutoCloseable {
    /** Reads the marker byte the peer's RDMA write leaves; volatile, or the JIT may read it once. */
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    private final PerfSession s;
    private final Completions sends;
    private final Completions receives;
    private final PreparedSend send;
    private final PreparedReceive receive;
    private final boolean client;
    private int sendsInFlight;
    private int receivesDone;

    /** {@code receives} may be null when the test posts no receives. */
    LatencyRunner(PerfSession session, Completions sends, Completions receives, boolean client) {
        this.s = session;
        this.sends = sends;
        this.receives = receives;
        this.client = client;
        this.send = session.qp.prepareSend(1, 1);
        PerfTest test = session.options.test();
        if (test.usesReceives()) {
            receive = session.qp.prepareReceive(1, 1);
            receive.sge(0, 0, session.mr, session.incoming(), (int) session.half);
            for (int i = 0; i < session.options.rxDepth(); i++) {
                receive.post();
            }
        } else {
            receive = null;
        }
    }

    /**
     * Runs {@code iterations} exchanges of {@code size} bytes and fills {@code posted} with
     * their post times. Returns false when this side only serves (read and atomic targets),
     * which measures nothing.
     */
    boolean run(int size, int iterations, long[] posted) {
        PerfTest test = s.options.test();
        prepare(test, size);
        return switch (test) {
            case SEND_LAT -> {
                pingPongSend(iterations, posted);
                yield true;
            }
            case WRITE_LAT -> {
                pingPongWrite(size, iterations, posted);
                yield true;
            }
            case READ_LAT, ATOMIC_LAT -> {
                if (client) {
                    requestResponse(iterations, posted);
                }
                yield client;
            }
            default -> throw new IllegalArgumentException(test + " is not a latency test");
        };
    }

    private void prepare(PerfTest test, int size) {
        SendOpcode opcode = switch (test) {
            case SEND_LAT -> SendOpcode.SEND;
            case WRITE_LAT -> SendOpcode.RDMA_WRITE;
            case READ_LAT -> SendOpcode.RDMA_READ;
            default -> SendOpcode.ATOMIC_FETCH_AND_ADD;
        };
        send.flags(0, SendFlag.SIGNALED.bit()); // no INLINE while the length changes
        send.opcode(0, opcode);
        // reads land in our incoming half; everything else goes out of the source half
        long local = opcode == SendOpcode.RDMA_READ ? s.incoming() : PerfSession.SOURCE;
        send.sge(0, 0, s.mr, local, size);
        if (opcode.isRemoteAccess()) {
            send.remote(0, s.remote().address(), s.remote().rkey());
        }
        if (opcode.isAtomic()) {
            send.compareAdd(0, 1);
        }
        boolean inline = size <= s.options.inlineSize() && opcode != SendOpcode.RDMA_READ && !opcode.isAtomic();
        if (inline) {
            send.flags(0, SendFlag.mask(SendFlag.SIGNALED, SendFlag.INLINE));
        }
    }

    /**
     * send_lat: the client sends first; each side answers every receive with a send. As in
     * perftest's run_iter_lat_send, each send is waited for on the send CQ right after posting
     * (perftest signals every cq-mod sends, which tx-depth 1 makes every send), and every
     * receive completion is replaced at once by a new receive.
     */
    private void pingPongSend(int total, long[] posted) {
        int target = receivesDone;
        for (int i = 0; i < total; i++) {
            if (!client || i > 0) {
                awaitReceives(++target);
            }
            posted[i] = System.nanoTime();
            postSend();
            drainSends();
        }
        if (client) {
            awaitReceives(++target); // the server's last answer
        }
    }

    /** write_lat: each side spins on the last byte of its incoming half for the peer's marker. */
    private void pingPongWrite(int size, int total, long[] posted) {
        long markerIn = s.incoming() + size - 1;
        long markerOut = PerfSession.SOURCE + size - 1;
        for (int i = 0; i < total; i++) {
            byte expected = marker(i);
            if (!client) {
                spinFor(markerIn, expected);
            }
            posted[i] = System.nanoTime();
            BYTE.setRelease(s.buffer, markerOut, expected);
            postSend();
            if (client) {
                spinFor(markerIn, expected);
            }
        }
        drainSends();
    }

    /** read_lat and atomic_lat: one request, wait for its completion, repeat. */
    private void requestResponse(int total, long[] posted) {
        for (int i = 0; i < total; i++) {
            posted[i] = System.nanoTime();
            postSend();
            drainSends();
        }
    }

    /** 1..255: never 0, the value of a cleared buffer. */
    private static byte marker(int iteration) {
        return (byte) (iteration % 255 + 1);
    }

    private void spinFor(long offset, byte expected) {
        while ((byte) BYTE.getVolatile(s.buffer, offset) != expected) {
            Thread.onSpinWait();
            if (sendsInFlight > 0) {
                sendsInFlight -= sends.pollNow();
            }
        }
    }

    private void postSend() {
        while (sendsInFlight >= s.options.txDepth()) {
            sendsInFlight -= sends.await();
        }
        send.post();
        sendsInFlight++;
    }

    /** Takes receive completions until {@code target}, replacing each with a new receive. */
    private void awaitReceives(int target) {
        while (receivesDone < target) {
            int n = receives.await();
            for (int i = 0; i < n; i++) {
                receive.post();
            }
            receivesDone += n;
        }
    }

    private void drainSends() {
        while (sendsInFlight > 0) {
            sendsInFlight -= sends.await();
        }
    }

    @Override
    public void close() {
        send.close();
        if (receive != null) {
            receive.close();
        }
    }
}
