package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Several threads post SENDs to one RC QP at once, each with its own PreparedSend: every message
 * arrives intact, each thread's messages in the order it posted them.
 */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConcurrentPostRigTest {
    private static final int THREADS = 4;
    private static final int PER_THREAD = 50;
    private static final int TOTAL = THREADS * PER_THREAD;
    /** thread id, sequence number, and a check word derived from both. */
    private static final int MESSAGE = 16;
    private static final int SLOT = 64;

    private static long check(int thread, int seq) {
        return 0x9E3779B97F4A7C15L * (thread * 1000L + seq + 1);
    }

    @Test
    void fourThreadsShareOneQueuePair() throws Exception {
        try (QpLoopback l = QpLoopback.resourcesOnly();
             WorkCompletions wc = new WorkCompletions(16)) {
            // deep enough for every message at once: nobody waits for room, so posts really overlap
            CompletionQueue sendCq = l.track(l.ctx.createCompletionQueue(2 * TOTAL));
            CompletionQueue recvCq = l.track(l.ctx.createCompletionQueue(2 * TOTAL));
            QpCapabilities caps = new QpCapabilities(TOTAL + 16, TOTAL + 16, 1, 1, 0);
            QueuePair a = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, sendCq).capabilities(caps).build()));
            QueuePair b = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, recvCq).capabilities(caps).build()));
            l.connect(a, 1, b, 2);
            l.connect(b, 2, a, 1);
            // one slot per message on both sides, so no sender reuses a buffer still in flight
            MemorySegment out = l.arena.allocate((long) TOTAL * SLOT, 4096);
            MemorySegment in = l.arena.allocate((long) TOTAL * SLOT, 4096);
            MemoryRegion outMr = l.track(l.pd.register(out, Access.ALL_REMOTE));
            MemoryRegion inMr = l.track(l.pd.register(in, Access.ALL_REMOTE));

            PreparedReceive recv = l.track(b.prepareReceive(1, 1));
            for (int i = 0; i < TOTAL; i++) {
                recv.wrId(0, i).sge(0, 0, inMr, (long) i * SLOT, SLOT).post();
            }

            CyclicBarrier start = new CyclicBarrier(THREADS);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> posters = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    posters.add(pool.submit(() -> {
                        try (PreparedSend send = a.prepareSend(1, 1)) {
                            send.flags(0, SendFlag.mask(SendFlag.SIGNALED));
                            start.await(30, TimeUnit.SECONDS);
                            for (int seq = 0; seq < PER_THREAD; seq++) {
                                long slot = (long) (thread * PER_THREAD + seq) * SLOT;
                                out.set(ValueLayout.JAVA_INT, slot, thread);
                                out.set(ValueLayout.JAVA_INT, slot + 4, seq);
                                out.set(ValueLayout.JAVA_LONG, slot + 8, check(thread, seq));
                                send.sge(0, 0, outMr, slot, MESSAGE).wrId(((long) thread << 32) | seq).post();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : posters) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
                assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
            }

            Set<Long> sent = new HashSet<>();
            for (int done = 0; done < TOTAL; ) {
                int n = poll(sendCq, wc, "send completion " + done);
                for (int i = 0; i < n; i++) {
                    assertTrue(wc.isSuccess(i), "send " + Long.toHexString(wc.wrId(i)) + ": " + wc.statusEnum(i));
                    long id = wc.wrId(i);
                    assertTrue(id >>> 32 < THREADS && (int) id < PER_THREAD, "unknown wr_id " + Long.toHexString(id));
                    assertTrue(sent.add(id), "completed twice: " + Long.toHexString(id));
                }
                done += n;
            }

            int[] nextSeq = new int[THREADS];
            for (int done = 0; done < TOTAL; ) {
                int n = poll(recvCq, wc, "receive " + done);
                for (int i = 0; i < n; i++) {
                    assertTrue(wc.isSuccess(i), "receive " + wc.wrId(i) + ": " + wc.statusEnum(i));
                    assertEquals(done + i, wc.wrId(i), "receives complete in the order they were posted");
                    assertEquals(MESSAGE, wc.byteLength(i));
                    long slot = wc.wrId(i) * SLOT;
                    int thread = in.get(ValueLayout.JAVA_INT, slot);
                    int seq = in.get(ValueLayout.JAVA_INT, slot + 4);
                    assertTrue(thread >= 0 && thread < THREADS, "thread id " + thread + " in message " + wc.wrId(i));
                    assertEquals(nextSeq[thread], seq, "thread " + thread + "'s messages in order");
                    assertEquals(check(thread, seq), in.get(ValueLayout.JAVA_LONG, slot + 8), "payload intact");
                    nextSeq[thread]++;
                }
                done += n;
            }
            for (int t = 0; t < THREADS; t++) {
                assertEquals(PER_THREAD, nextSeq[t], "all of thread " + t + "'s messages");
            }
            assertEquals(0, recvCq.poll(wc), "nothing more");
        }
    }

    private static int poll(CompletionQueue cq, WorkCompletions wc, String what) {
        long deadline = System.nanoTime() + QpLoopback.TIMEOUT.toNanos();
        int n;
        while ((n = cq.poll(wc)) == 0) {
            if (System.nanoTime() > deadline) {
                fail("no " + what + " within " + QpLoopback.TIMEOUT.toSeconds() + " s");
            }
            Thread.onSpinWait();
        }
        return n;
    }
}
