package dev.verbs4j.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A {@link WirePlan}'s requests posted from an RC QP on side A (the requester) to one on side B
 * (the responder), at most a window of them at once, while the wire between them misbehaves: SENDs
 * land in receives B posted up front, RDMA WRITEs in B's region, RDMA READs bring B's bytes into
 * A's. It holds the QP pair to RC's promise: every posted request completes exactly once and in
 * order, SUCCESS with its bytes exactly where they belong, or the QP fails once with an allowed
 * status and flushes the rest; every wait is bounded.
 */
final class WireStream implements AutoCloseable {
    private static final int READ_DEPTH = 16;
    private static final int PSN_A = 0x100;
    private static final int PSN_B = 0x200;
    private static final long IDLE_PARK_NANOS = 200_000;

    /** A change to the wire, made {@code atMillis} after the first window is posted. */
    record Step(long atMillis, String name, Runnable action) {}

    /**
     * A request (or, for a SEND, its receive) that completed SUCCESS with bytes not all right:
     * {@code firstWrong} is the first wrong byte's offset in the slot (the slot's length when only
     * the guard after it was overwritten); {@code tailUnwritten} says the bytes from there on are
     * still the sentinel, never written, and start at a packet boundary (MTU 1024).
     */
    record WrongSuccess(int request, SendOpcode opcode, int length, long firstWrong, boolean tailUnwritten) {
        @Override
        public String toString() {
            return opcode + " " + request + " SUCCESS but its " + length + " bytes are wrong from byte " + firstWrong
                    + (tailUnwritten ? " on (never written)" : "");
        }
    }

    private final WirePlan plan;
    private final int window;
    private final ReverseCloser toClose = new ReverseCloser();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment bufA;
    private final MemorySegment bufB;
    private final MemoryRegion mrA;
    private final MemoryRegion mrB;
    private final CompletionQueue cqA;
    private final CompletionQueue cqB;
    private final QueuePair qa;
    private final QueuePair qb;
    private final PreparedSend send;
    private final WorkCompletions wc;
    private final WcStatus[] status;
    private final int[] sendOfReceive;
    private final WcStatus[] receiveStatus;
    private final int[] receiveBytes;
    private int posted;
    private int completed;
    private int receivesCompleted;
    private int firstFailure = -1;
    private long firstFailureAt;
    private boolean postRefused;
    private long start;
    private final List<long[]> stepTimes = new ArrayList<>();
    private long bytesChecked;
    private int requestsChecked;
    private final List<WrongSuccess> wrongSuccesses = new ArrayList<>();

    /**
     * Sets up both ends: regions filled (sources with their patterns, destinations with the
     * sentinel), QPs connected with A's ACK timeout code and retry count, every receive posted.
     */
    WireStream(NetnsSide a, NetnsSide b, WirePlan plan, int window, int timeoutCode, int retryCount) {
        this.plan = plan;
        this.window = window;
        try {
            bufA = region(plan);
            bufB = region(plan);
            for (int i = 0; i < plan.size(); i++) {
                MemorySegment source = plan.opcode(i) == SendOpcode.RDMA_READ ? bufB : bufA;
                MemorySegment.copy(plan.pattern(i), 0, source, ValueLayout.JAVA_BYTE, plan.offset(i), plan.length(i));
            }
            mrA = track(a.pd.register(bufA, Access.ALL_REMOTE));
            mrB = track(b.pd.register(bufB, Access.ALL_REMOTE));
            cqA = track(a.ctx.createCompletionQueue(2 * window));
            cqB = track(b.ctx.createCompletionQueue(plan.sends() + 1));
            qa = track(a.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, cqA)
                    .capabilities(new QpCapabilities(window, 1, 1, 1, 0)).build()));
            qb = track(b.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, cqB)
                    .capabilities(new QpCapabilities(1, Math.max(1, plan.sends()), 1, 1, 0)).build()));
            a.connect(qa, b, qb.number(), PSN_B, 1, RtsAttributes.builder().sqPsn(PSN_A).timeout(timeoutCode)
                    .retryCount(retryCount).maxRdAtomic(READ_DEPTH).build());
            b.connect(qb, a, qa.number(), PSN_A, READ_DEPTH, RtsAttributes.withSendPsn(PSN_B));
            status = new WcStatus[plan.size()];
            sendOfReceive = new int[plan.sends()];
            receiveStatus = new WcStatus[plan.sends()];
            receiveBytes = new int[plan.sends()];
            try (PreparedReceive recv = qb.prepareReceive(1, 1)) {
                int j = 0;
                for (int i = 0; i < plan.size(); i++) {
                    if (plan.opcode(i) == SendOpcode.SEND) {
                        sendOfReceive[j] = i;
                        recv.wrId(j++).sge(0, 0, mrB, plan.offset(i), plan.length(i)).post();
                    }
                }
            }
            send = track(qa.prepareSend(1, 1));
            send.flags(0, SendFlag.mask(SendFlag.SIGNALED));
            wc = track(new WorkCompletions(64));
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private MemorySegment region(WirePlan p) {
        MemorySegment s = arena.allocate(p.regionBytes(), 4096);
        s.fill(WirePlan.SENTINEL);
        return s;
    }

    private <T extends AutoCloseable> T track(T resource) {
        return toClose.track(resource);
    }

    /**
     * Posts and polls until every step has run and every posted request has completed, then
     * flushes B's receives and checks every byte. Fails with the stream's state after {@code bound}.
     */
    void run(List<Step> steps, Duration bound) {
        start = System.nanoTime();
        long deadline = start + bound.toNanos();
        pump(); // the first window is in flight before the first step
        pumpUntil(() -> runDueSteps(steps) && settled(), deadline,
                () -> "the stream did not settle within " + bound.toSeconds() + " s");
        flushReceives(deadline, bound);
        checkBytes();
    }

    /** Runs the steps whose time has come, noting when each began and returned; true once all have run. */
    private boolean runDueSteps(List<Step> steps) {
        while (stepTimes.size() < steps.size()
                && System.nanoTime() - start >= steps.get(stepTimes.size()).atMillis() * 1_000_000) {
            long before = System.nanoTime();
            steps.get(stepTimes.size()).action().run();
            stepTimes.add(new long[] {before, System.nanoTime()});
        }
        return stepTimes.size() == steps.size();
    }

    /** Pumps until {@code done}, parking briefly when nothing happens; fails with {@code what} after the deadline. */
    private void pumpUntil(BooleanSupplier done, long deadline, Supplier<String> what) {
        while (!done.getAsBoolean()) {
            if (!pump()) {
                LockSupport.parkNanos(IDLE_PARK_NANOS);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what.get() + ": " + state());
            }
        }
    }

    private boolean settled() {
        return completed == posted && (posted == plan.size() || firstFailure >= 0 || postRefused);
    }

    /** Posts up to the window, polls both CQs; true if anything happened. */
    private boolean pump() {
        boolean progress = false;
        while (firstFailure < 0 && !postRefused && posted < plan.size() && posted - completed < window) {
            progress |= post(posted);
        }
        int n = cqA.poll(wc);
        for (int k = 0; k < n; k++) {
            onRequestCompletion(k);
        }
        int m = cqB.poll(wc);
        for (int k = 0; k < m; k++) {
            onReceiveCompletion(k);
        }
        return progress || n > 0 || m > 0;
    }

    private boolean post(int i) {
        long at = plan.offset(i);
        send.opcode(0, plan.opcode(i)).wrId(0, i).sge(0, 0, mrA, at, plan.length(i));
        if (plan.opcode(i) != SendOpcode.SEND) {
            send.remote(0, mrB.address() + at, mrB.rkey());
        }
        try {
            send.post();
            posted++;
            return true;
        } catch (WorkRequestException e) {
            // the QP failed before its error completion was polled: the device may refuse further posts
            QpState now = qa.state();
            if (now != QpState.ERR) {
                throw new AssertionError("post of request " + i + " refused with the QP in " + now, e);
            }
            postRefused = true;
            return false;
        }
    }

    private void onRequestCompletion(int k) {
        long id = wc.wrId(k);
        WcStatus s = wc.statusEnum(k);
        if (id != completed) {
            throw new AssertionError("completion for request " + id + " (" + s + ") where request " + completed
                    + " was next: completions lost, repeated or out of order; " + state());
        }
        status[completed++] = s;
        if (s == WcStatus.SUCCESS) {
            if (firstFailure >= 0) {
                throw new AssertionError("request " + id + " SUCCESS after request " + firstFailure + " failed with "
                        + status[firstFailure] + "; " + state());
            }
        } else if (firstFailure < 0) {
            firstFailure = (int) id;
            firstFailureAt = System.nanoTime();
        } else if (s != WcStatus.WR_FLUSH_ERR) {
            throw new AssertionError("request " + id + " failed with " + s + " after request " + firstFailure
                    + " failed with " + status[firstFailure] + " (expected WR_FLUSH_ERR); " + state());
        }
    }

    private void onReceiveCompletion(int k) {
        long j = wc.wrId(k);
        WcStatus s = wc.statusEnum(k);
        if (j != receivesCompleted) {
            throw new AssertionError("completion for receive " + j + " (" + s + ") where receive " + receivesCompleted
                    + " was next; " + state());
        }
        if (s != WcStatus.SUCCESS && s != WcStatus.WR_FLUSH_ERR) {
            throw new AssertionError("receive " + j + " completed with " + s + "; " + state());
        }
        if (s == WcStatus.SUCCESS && j > 0 && receiveStatus[(int) j - 1] != WcStatus.SUCCESS) {
            throw new AssertionError("receive " + j + " SUCCESS after a flushed one; " + state());
        }
        receiveStatus[(int) j] = s;
        receiveBytes[(int) j] = wc.byteLength(k);
        receivesCompleted++;
    }

    /**
     * Waits until B has a receive completion for every SEND A saw acknowledged (B completes a
     * receive before it acknowledges the SEND), then moves B's QP to ERR, which flushes the rest.
     */
    private void flushReceives(long deadline, Duration bound) {
        int acked = 0;
        for (int i = 0; i < completed; i++) {
            acked += plan.opcode(i) == SendOpcode.SEND && status[i] == WcStatus.SUCCESS ? 1 : 0;
        }
        int sendsAcked = acked;
        pumpUntil(() -> receivesCompleted >= sendsAcked, deadline, () -> sendsAcked + " SENDs acknowledged but only "
                + receivesCompleted + " receives completed within " + bound.toSeconds() + " s");
        qb.toError();
        pumpUntil(() -> receivesCompleted == plan.sends(), deadline,
                () -> "B's receives not all flushed within " + bound.toSeconds() + " s");
    }

    /**
     * Every SUCCESS: its bytes, exactly, at their destination, and the guard after them untouched;
     * each one that is not is kept in {@link #wrongSuccesses()} for the test to judge.
     */
    private void checkBytes() {
        for (int i = 0; i < completed; i++) {
            if (status[i] == WcStatus.SUCCESS && plan.opcode(i) != SendOpcode.SEND) {
                checkSlot(plan.opcode(i) == SendOpcode.RDMA_READ ? bufA : bufB, i);
            }
        }
        int receivesOk = 0;
        for (int j = 0; j < plan.sends(); j++) {
            int i = sendOfReceive[j];
            if (receiveStatus[j] == WcStatus.SUCCESS) {
                receivesOk++;
                if (receiveBytes[j] != plan.length(i)) {
                    throw new AssertionError("receive " + j + " of SEND " + i + ": byte_len " + receiveBytes[j]
                            + ", sent " + plan.length(i));
                }
                checkSlot(bufB, i);
            } else if (i < completed && status[i] == WcStatus.SUCCESS) {
                throw new AssertionError("SEND " + i + " SUCCESS at A but its receive " + j + " " + receiveStatus[j]);
            }
        }
        if (firstFailure < 0 && (completed != plan.size() || receivesOk != plan.sends())) {
            throw new AssertionError("no failure, yet " + completed + " of " + plan.size() + " requests and "
                    + receivesOk + " of " + plan.sends() + " receives completed");
        }
    }

    private void checkSlot(MemorySegment region, int i) {
        byte[] expected = plan.pattern(i);
        MemorySegment slot = region.asSlice(plan.offset(i), expected.length + WirePlan.GUARD);
        long wrong = slot.asSlice(0, expected.length).mismatch(MemorySegment.ofArray(expected));
        if (wrong < 0) {
            for (int g = 0; g < WirePlan.GUARD; g++) {
                if (slot.get(ValueLayout.JAVA_BYTE, expected.length + g) != WirePlan.SENTINEL) {
                    wrongSuccesses.add(new WrongSuccess(i, plan.opcode(i), expected.length, expected.length, false));
                    return;
                }
            }
            bytesChecked += expected.length;
            requestsChecked++;
            return;
        }
        boolean unwritten = wrong % 1024 == 0;
        for (long k = wrong; k < slot.byteSize() && unwritten; k++) {
            unwritten = slot.get(ValueLayout.JAVA_BYTE, k) == WirePlan.SENTINEL;
        }
        wrongSuccesses.add(new WrongSuccess(i, plan.opcode(i), expected.length, wrong, unwritten));
    }

    /** The successes whose bytes were wrong (SENDs counted at their receive), in request order per kind. */
    List<WrongSuccess> wrongSuccesses() {
        return List.copyOf(wrongSuccesses);
    }

    /** Index of the first request that did not complete SUCCESS, or -1. */
    int firstFailure() {
        return firstFailure;
    }

    int planned() {
        return plan.size();
    }

    /** How many of the steps have run. */
    int stepsRun() {
        return stepTimes.size();
    }

    int posted() {
        return posted;
    }

    int succeeded() {
        return completedWith(s -> s == WcStatus.SUCCESS);
    }

    /** The requests whose bytes were found exactly right at their destination (SENDs at their receive). */
    int requestsChecked() {
        return requestsChecked;
    }

    long bytesChecked() {
        return bytesChecked;
    }

    /** The first failed request's status, or null when none failed. */
    WcStatus failure() {
        return firstFailure < 0 ? null : status[firstFailure];
    }

    /** Requests that completed with an error of their own (not flushed): 0 or 1. */
    int errors() {
        return completedWith(s -> s != WcStatus.SUCCESS && s != WcStatus.WR_FLUSH_ERR);
    }

    int receivesPosted() {
        return plan.sends();
    }

    int flushed() {
        return completedWith(s -> s == WcStatus.WR_FLUSH_ERR);
    }

    private int completedWith(Predicate<WcStatus> which) {
        int n = 0;
        for (int i = 0; i < completed; i++) {
            n += which.test(status[i]) ? 1 : 0;
        }
        return n;
    }

    /** Nanoseconds from the first post to the first failure. */
    long failureAfterStart() {
        if (firstFailure < 0) {
            throw new IllegalStateException("no request failed");
        }
        return firstFailureAt - start;
    }

    /** Nanoseconds from when step {@code step} began (or, {@code afterStep}, returned) to the first failure. */
    long failureAfterStep(int step, boolean afterStep) {
        if (firstFailure < 0) {
            throw new IllegalStateException("no request failed");
        }
        return firstFailureAt - stepTimes.get(step)[afterStep ? 1 : 0];
    }

    String state() {
        QpState stateA;
        try {
            stateA = qa.state();
        } catch (RuntimeException e) {
            stateA = null;
        }
        return "posted " + posted + " of " + plan.size() + ", completed " + completed + ", first failure "
                + (firstFailure < 0 ? "none" : firstFailure + " " + status[firstFailure]) + ", receives completed "
                + receivesCompleted + " of " + plan.sends() + ", A's QP " + stateA;
    }

    @Override
    public void close() {
        toClose.close();
        arena.close();
    }
}
