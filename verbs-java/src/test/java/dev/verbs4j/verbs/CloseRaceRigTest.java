package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.rig.ResourceShow;
import dev.verbs4j.rig.RigEnvironment;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Closes QPs, an SRQ, CQs and MRs while other threads post to and poll them, round after round:
 * the users must see IllegalStateException (or a failed post or error completion), never a
 * crash, and every native object must be gone at the end.
 */
@Tag("rdma")
class CloseRaceRigTest {
    private static final int ROUNDS = 200;
    private static final long JOIN_MILLIS = 20_000;

    @Test
    void closeRacesWithPostAndPoll() throws Exception {
        String device = RigEnvironment.current().device();
        Map<String, Integer> before = ResourceShow.counts(device);
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        long refused = 0;
        try (QpLoopback l = QpLoopback.resourcesOnly()) {
            for (int round = 0; round < ROUNDS; round++) {
                refused += round(l, round, unexpected);
                if (!unexpected.isEmpty()) {
                    AssertionError e = new AssertionError("round " + round + ": a user saw something else than a "
                            + "closed-object exception, a failed post or an error completion");
                    unexpected.forEach(e::addSuppressed);
                    throw e;
                }
            }
        }
        assertTrue(refused >= ROUNDS, "each round refused at least one use after close, got " + refused);
        assertEquals(before, ResourceShow.counts(device), "every native object was destroyed");
    }

    /** One round: fresh CQ, SRQ, QPs and MR, three users, then everything closed under them. */
    private static long round(QpLoopback l, int round, ConcurrentLinkedQueue<Throwable> unexpected)
            throws InterruptedException {
        AtomicLong progress = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        List<Thread> users = new ArrayList<>();
        try (Arena arena = Arena.ofShared()) {
            CompletionQueue cq = l.ctx.createCompletionQueue(256);
            SharedReceiveQueue srq = l.pd.createSharedReceiveQueue(64, 1);
            MemoryRegion mr = l.pd.register(arena.allocate(4096, 4096), Access.ALL_REMOTE);
            QpCapabilities caps = QpCapabilities.small().withInlineData(32);
            QueuePair a = l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, cq).capabilities(caps).build());
            QueuePair b = l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, cq).sharedReceiveQueue(srq)
                    .capabilities(caps).build());
            l.connect(a, QpLoopback.PSN_A, b, QpLoopback.PSN_B);
            l.connect(b, QpLoopback.PSN_B, a, QpLoopback.PSN_A);
            boolean inline = round % 2 == 0;
            users.add(user("sender", unexpected, refused, () -> {
                try (PreparedSend send = a.prepareSend(4, 1)) {
                    for (int i = 0; i < 4; i++) {
                        send.sge(i, 0, mr, i * 16L, 16).flags(i, inline
                                ? SendFlag.mask(SendFlag.SIGNALED, SendFlag.INLINE) : SendFlag.SIGNALED.bit());
                    }
                    while (true) {
                        postIgnoringFullQueue(send::post);
                        progress.incrementAndGet();
                    }
                }
            }));
            users.add(user("receiver", unexpected, refused, () -> {
                try (PreparedReceive recv = srq.prepareReceive(4, 1)) {
                    for (int i = 0; i < 4; i++) {
                        recv.sge(i, 0, mr, 2048 + i * 64L, 64);
                    }
                    while (true) {
                        postIgnoringFullQueue(recv::post);
                        progress.incrementAndGet();
                    }
                }
            }));
            for (int p = 0; p < 2; p++) {
                users.add(user("poller " + p, unexpected, refused, () -> {
                    try (WorkCompletions wc = new WorkCompletions(16)) {
                        while (true) {
                            cq.poll(wc); // error completions (flushes, a region gone) are allowed
                            progress.incrementAndGet();
                        }
                    }
                }));
            }
            users.forEach(Thread::start);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (progress.get() < 50 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            // the order a careful program would use, each close racing with the users
            a.close();
            b.close();
            srq.close();
            mr.close();
            cq.close();
            for (Thread t : users) {
                t.join(JOIN_MILLIS);
                if (t.isAlive()) {
                    fail("round " + round + ": " + t.getName() + " did not see the close within " + JOIN_MILLIS + " ms");
                }
            }
        }
        return refused.get();
    }

    private static void postIgnoringFullQueue(Runnable post) {
        try {
            post.run();
        } catch (WorkRequestException e) {
            // the queue is full (ENOMEM) or the QP left RTS: what a post may say at any time
        }
    }

    /** A thread running {@code body} until a closed object stops it with IllegalStateException. */
    private static Thread user(String name, ConcurrentLinkedQueue<Throwable> unexpected, AtomicLong refused,
                               Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (IllegalStateException e) {
                if (e.getMessage() != null && e.getMessage().contains("is closed")) {
                    refused.incrementAndGet();
                } else {
                    unexpected.add(e);
                }
            } catch (Throwable e) {
                unexpected.add(e);
            }
        }, name);
        t.setDaemon(true);
        return t;
    }
}
