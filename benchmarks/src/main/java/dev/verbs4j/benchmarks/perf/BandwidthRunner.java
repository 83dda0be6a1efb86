package dev.verbs4j.benchmarks.perf;

import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.SendOpcode;
import dev.verbs4j.verbs.WorkCompletions;

/**
 * The bandwidth loops: the client keeps up to tx-depth requests in flight and asks for a
 * completion only every cq-mod requests (perftest's CQ moderation); a completion covers every
 * request posted before it. The send_bw server keeps its receive queue full and timestamps
 * arrivals off its receive CQ, the client's completions come off the send CQ (separate CQs, as
 * in perftest). Two prepared requests (signaled, unsignaled) avoid touching flags in the loop.
 */
final class BandwidthRunner implements AutoCloseable {
    private final PerfSession s;
    private final Completions sends;
    private final Completions receives;
    private final boolean client;
    private final PreparedSend unsignaled;
    private final PreparedSend signaled;
    private final PreparedReceive receive;

    /** {@code receives} may be null when the test posts no receives. */
    BandwidthRunner(PerfSession session, Completions sends, Completions receives, boolean client) {
        this.s = session;
        this.sends = sends;
        this.receives = receives;
        this.client = client;
        this.unsignaled = session.qp.prepareSend(1, 1);
        this.signaled = session.qp.prepareSend(1, 1);
        if (session.options.test() == PerfTest.SEND_BW && !client) {
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
     * Moves {@code iterations} messages of {@code size} bytes and fills their timestamps.
     * Returns false when this side measures nothing (write/read target).
     */
    boolean run(int size, int iterations, long[] posted, long[] completed) {
        PerfTest test = s.options.test();
        if (!client) {
            if (test != PerfTest.SEND_BW) {
                return false; // the peer reads or writes our memory; we only wait
            }
            receiveAll(iterations, posted, completed);
            return true;
        }
        SendOpcode opcode = switch (test) {
            case SEND_BW -> SendOpcode.SEND;
            case WRITE_BW -> SendOpcode.RDMA_WRITE;
            case READ_BW -> SendOpcode.RDMA_READ;
            default -> throw new IllegalArgumentException(test + " is not a bandwidth test");
        };
        prepare(unsignaled, opcode, size, 0);
        prepare(signaled, opcode, size, SendFlag.SIGNALED.bit());
        postAll(iterations, posted, completed);
        return true;
    }

    private void prepare(PreparedSend wr, SendOpcode opcode, int size, int flags) {
        wr.flags(0, flags);
        wr.opcode(0, opcode);
        long local = opcode == SendOpcode.RDMA_READ ? s.incoming() : PerfSession.SOURCE;
        wr.sge(0, 0, s.mr, local, size);
        if (opcode.isRemoteAccess()) {
            wr.remote(0, s.remote().address(), s.remote().rkey());
        }
        if (size <= s.options.inlineSize() && opcode != SendOpcode.RDMA_READ) {
            wr.flags(0, flags | SendFlag.INLINE.bit());
        }
    }

    private void postAll(int total, long[] posted, long[] completed) {
        int depth = s.options.txDepth();
        int cqMod = s.options.cqModeration();
        int sent = 0;
        int done = 0;
        while (done < total) {
            while (sent < total && sent - done < depth) {
                boolean signal = sent % cqMod == cqMod - 1 || sent == total - 1;
                PreparedSend wr = signal ? signaled : unsignaled;
                if (signal) {
                    wr.wrId(0, sent);
                }
                posted[sent] = System.nanoTime();
                wr.post();
                sent++;
            }
            int n = sends.await();
            long now = System.nanoTime();
            WorkCompletions wc = sends.batch();
            for (int i = 0; i < n; i++) {
                int last = (int) wc.wrId(i);
                for (int k = done; k <= last; k++) {
                    completed[k] = now;
                }
                done = last + 1;
            }
        }
    }

    /**
     * send_bw server: stamps each arrival. A message's "post" time is the previous arrival, so
     * the average spans the start of the loop to the last arrival. Arrivals taken in one poll
     * share a stamp, so these gaps give no peak; the server reports none, as perftest's does.
     */
    private void receiveAll(int total, long[] posted, long[] completed) {
        int received = 0;
        long previous = System.nanoTime();
        int most = receives.batch().capacity();
        while (received < total) {
            // no more than this pass expects: the next pass's messages may already be arriving
            int n = receives.await(Math.min(most, total - received));
            long now = System.nanoTime();
            for (int i = 0; i < n; i++) {
                posted[received] = previous;
                completed[received] = now;
                previous = now;
                received++;
                receive.post();
            }
        }
    }

    @Override
    public void close() {
        unsignaled.close();
        signaled.close();
        if (receive != null) {
            receive.close();
        }
    }
}
