package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.verbs4j.rig.LinkFaults;
import dev.verbs4j.rig.ReliabilityRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RC SENDs, RDMA WRITEs and RDMA READs between the two-netns rig's namespaces while the veth
 * between them drops, delays, reorders, duplicates or corrupts frames (tc netem on both ends) or
 * loses its link. Every request either completes SUCCESS with its bytes exactly right at their
 * destination or the QP fails once and flushes the rest; none is lost, none completes twice, no
 * wait is unbounded ({@link WireStream}). Each case prints its row of the reliability table
 * ({@code reliability | }, see ci/faults): ci/test runs a few dozen requests a case, ci/faults
 * {@code -Dfaults.messages=N}.
 * <p>
 * What rxe (kernel 7.3) does, as these cases pin it down:
 * <ul>
 * <li>retry_cnt 7 means retry for ever (rxe never counts it down), so the cases that may fail use
 *     6, the largest budget that ends: a blackhole (netem loss 100 %) then fails with
 *     RETRY_EXC_ERR after (6 + 1) ACK timeouts.</li>
 * <li>A frame the netdev refuses (its rxe counter send_err) fails the QP at once: every
 *     outstanding request completes WR_FLUSH_ERR and none with an error of its own. That is what
 *     the requester's netdev going down does (no route: at the next transmission, without a send
 *     error), and what a carrier loss does to a frame on its way out.</li>
 * <li>Otherwise a carrier loss is no blackhole: the kernel drops the peer's ARP entry, frames wait
 *     in ARP's queue, the retransmit timer waits with them, and the QP carries on when the link
 *     returns; left down, it fails with RETRY_EXC_ERR anywhere from the RC budget to seconds
 *     after it (16 ms to 18.5 s measured for budgets of 8 to 476 ms).</li>
 * <li>A READ response out of sequence, behind a lost, corrupted or overtaken frame, can make rxe
 *     complete the RDMA READ SUCCESS with only its first packets' bytes written (its completer
 *     goes to the error state with the request's status still SUCCESS: the kernel warns once at
 *     rxe_comp.c); the QP then flushes the rest. The cases that lose or reorder frames accept
 *     exactly that and nothing else, and count the READ as lost in their row.</li>
 * </ul>
 * Needs the rig's two-netns topology (7.x kernel, sch_netem):
 * <pre>ci/rig run --topology two-netns mvn -B -o -ntp -P rig -pl verbs-java surefire:test -Dtest.groups=rdma-two-netns -Dtest.excludedGroups=none -Dtest=QpWireFaultsTwoNetnsRigTest</pre>
 */
@Tag("rdma-two-netns")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class QpWireFaultsTwoNetnsRigTest {
    /** Requests per case: few in ci/test, many in ci/faults ({@code -Dfaults.messages=1000}). */
    private static final int REQUESTS = Integer.getInteger("faults.messages", 64);
    /** 4.096 µs × 2^14 ≈ 67 ms, the usual default. */
    private static final int TIMEOUT_CODE = 14;
    /** rxe retries for ever at 7; 6 is the largest count that ends. */
    private static final int RETRIES = 6;
    private static final int WINDOW = 32;
    private static NetnsSide a;
    private static NetnsSide b;
    /** n0 (A's end of the veth, the requester's) and n1 (B's), netem installed on both before any traffic. */
    private static LinkFaults[] ends;

    /** What a fault may do to the stream, beyond every request SUCCESS with every byte right. */
    enum Expect {
        /** nothing: it must be repaired in full */
        REPAIRED(false, false, false),
        /** rxe's wrong READ and the rest flushed (see the class comment) */
        WRONG_READ(false, false, true),
        /** that, or the QP fails with RETRY_EXC_ERR and flushes the rest */
        RETRY_EXCEEDED_OR_WRONG_READ(true, false, true),
        /** the QP flushed for a frame the netdev refused (see the class comment) */
        REFUSED_FRAME(false, true, false),
        /** that, or RETRY_EXC_ERR */
        RETRY_EXCEEDED_OR_REFUSED_FRAME(true, true, false);

        final boolean retryExceeded;
        final boolean refusedFrame;
        final boolean wrongRead;

        Expect(boolean retryExceeded, boolean refusedFrame, boolean wrongRead) {
            this.retryExceeded = retryExceeded;
            this.refusedFrame = refusedFrame;
            this.wrongRead = wrongRead;
        }
    }

    /** A stream's end and what the devices counted meanwhile. */
    record Run(WireStream stream, Map<String, Long> a0, Map<String, Long> a1, Map<String, Long> b0,
               Map<String, Long> b1) {
        /** How much requester side's counter {@code name} rose. */
        long a(String name) {
            return WireCounters.delta(a0, a1, name);
        }

        long b(String name) {
            return WireCounters.delta(b0, b1, name);
        }
    }

    @BeforeAll
    static void open() throws Exception {
        LinkFaults.requireNetem();
        a = NetnsSide.open(0);
        b = NetnsSide.open(1);
        ends = new LinkFaults[] {new LinkFaults(a.ns.name(), a.veth), new LinkFaults(b.ns.name(), b.veth)};
        for (LinkFaults end : ends) {
            end.installNetem();
        }
    }

    @AfterAll
    static void close() {
        if (ends != null) {
            for (LinkFaults end : ends) {
                end.close();
            }
        }
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    /** The netem faults, each with its share of {@link #REQUESTS} (in quarters) and what it may do. */
    static Stream<Arguments> netemFaults() {
        return Stream.of(
                arguments("none", 4, Expect.REPAIRED), // the baseline
                arguments("loss 1%", 4, Expect.WRONG_READ),
                arguments("loss 5%", 4, Expect.WRONG_READ),
                arguments("loss 20%", 2, Expect.RETRY_EXCEEDED_OR_WRONG_READ),
                // jitter reorders: rxe's go-back-N then resends most of the window, so fewer requests
                arguments("delay 5ms 2ms", 1, Expect.RETRY_EXCEEDED_OR_WRONG_READ),
                arguments("delay 2ms reorder 25% 50%", 2, Expect.RETRY_EXCEEDED_OR_WRONG_READ),
                arguments("duplicate 5%", 4, Expect.REPAIRED),
                // rxe drops a frame whose ICRC is wrong; IP drops one whose header checksum is
                arguments("corrupt 5%", 4, Expect.WRONG_READ));
    }

    /**
     * The fault on both ends of the veth, both directions, in place before the first request: a
     * change of netem takes a process, during which a short stream could pass untouched.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource
    void netemFaults(String spec, int quarters, Expect expect) {
        try (Wire wire = new Wire()) {
            if (!spec.equals("none")) {
                wire.netem(spec);
            }
            Run run = run(spec, REQUESTS * quarters / 4, TIMEOUT_CODE, RETRIES, List.of(), wire);
            assertOutcome(spec, run, expect);
            row(spec, (spec.equals("none") ? "nothing, netem passing everything, " : "netem " + spec + " both ways, ")
                    + wire.counts(), run);
        }
    }

    /**
     * The link down 3 s (the responder's end, so the requester's loses its carrier) and up again,
     * within the RC budget (7 × 1.07 s): repaired, unless a frame met the carrier loss.
     */
    @Test
    void linkDownForThreeSecondsAndUpAgain() {
        try (Wire wire = new Wire()) {
            Run run = run("link down 3 s", REQUESTS, 18, RETRIES, List.of(
                    new WireStream.Step(0, "down", () -> wire.down(1)),
                    new WireStream.Step(3000, "up", () -> wire.up(1))), wire);
            assertOutcome("link down 3 s", run, Expect.REFUSED_FRAME);
            row("link down 3 s", "n1 down 3 s, then up; RC budget (6 + 1) × 1.07 s", run);
        }
    }

    /** The link down and left down past the RC budget (2 × 4.2 ms): the QP fails while it is down. */
    @Test
    void linkDownPastTheRetryBudgetFailsTheQueuePair() {
        try (Wire wire = new Wire()) {
            int timeoutCode = 10;
            int retries = 1;
            Run run = run("link down for good", REQUESTS, timeoutCode, retries, List.of(new WireStream.Step(0, "down", () -> wire.down(1))),
                    wire);
            assertOutcome("link down past the budget", run, Expect.RETRY_EXCEEDED_OR_REFUSED_FRAME);
            WireStream stream = run.stream();
            assertTrue(stream.failure() != null, "the link is still down, yet " + stream.state());
            long failedAfterMs = stream.failureAfterStep(0, true) / 1_000_000;
            System.out.printf("wire-faults: link down (carrier loss at the requester): %s %d ms after the link went"
                    + " down; the RC budget (%d + 1) × 4.096 µs × 2^%d is %.1f ms%n", stream.failure(), failedAfterMs,
                    retries, timeoutCode, (retries + 1) * timeoutMillis(timeoutCode));
            row("link down for good", String.format("n1 down past the RC budget (%d + 1) × %.1f ms", retries,
                    timeoutMillis(timeoutCode)), run);
        }
    }

    /** The requester's own netdev down: rxe flushes the QP at its next transmission, no retry, no error status. */
    @Test
    void theRequestersNetdevDownFlushesItsQueuePairAtOnce() {
        try (Wire wire = new Wire()) {
            Run run = run("requester's netdev down", REQUESTS, TIMEOUT_CODE, RETRIES,
                    List.of(new WireStream.Step(0, "down", () -> wire.down(0))), wire);
            WireStream stream = run.stream();
            long flushedAfterMs = stream.failureAfterStep(0, true) / 1_000_000;
            assertEquals(WcStatus.WR_FLUSH_ERR, stream.failure(), "first failure; " + stream.state());
            assertEquals(0, stream.errors(), "no error status names the cause");
            assertEquals(0, run.a("completer_retry_err"), "rxe retried nothing");
            assertTrue(stream.wrongSuccesses().isEmpty(), stream.wrongSuccesses().toString());
            assertTrue(flushedAfterMs < 1000, flushedAfterMs + " ms");
            row("requester's netdev down", "n0 down for good", run);
        }
    }

    /**
     * A blackhole (netem loss 100 % both ways) fails after the RC budget: (retries + 1) ACK
     * timeouts from the last ACK, so at least {@code retries} timeouts after the fault began and at
     * most {@code retries + 1} (and the emulation's slack) after it was in place.
     */
    @Test
    void aBlackholeEndsInRetryExceededAfterTheRcBudget() {
        try (Wire wire = new Wire()) {
            Run run = run("blackhole", REQUESTS, TIMEOUT_CODE, RETRIES,
                    List.of(new WireStream.Step(0, "loss 100%", () -> wire.netem("loss 100%"))), wire);
            WireStream stream = run.stream();
            assertEquals(WcStatus.RETRY_EXC_ERR, stream.failure(), stream.state());
            assertTrue(stream.wrongSuccesses().isEmpty(), stream.wrongSuccesses().toString());
            double timeout = timeoutMillis(TIMEOUT_CODE);
            double sinceBegun = stream.failureAfterStep(0, false) / 1e6;
            double sinceInPlace = stream.failureAfterStep(0, true) / 1e6;
            System.out.printf("wire-faults: blackhole: RETRY_EXC_ERR %.0f ms after the loss was in place (%.0f ms after"
                    + " it began); the RC budget (%d + 1) × 4.096 µs × 2^%d is %.1f ms%n", sinceInPlace, sinceBegun,
                    RETRIES, TIMEOUT_CODE, (RETRIES + 1) * timeout);
            assertTrue(sinceBegun >= RETRIES * timeout * 0.9, sinceBegun + " ms since the loss began");
            assertTrue(sinceInPlace <= (RETRIES + 1) * timeout * 1.1 + 300, sinceInPlace + " ms since it was in place");
            row("blackhole", String.format("netem loss 100%% both ways for good, RC budget (%d + 1) × %.0f ms, %s",
                    RETRIES, timeout, wire.counts()), run);
        }
    }

    /** rxe never counts down a retry_cnt of 7: through a blackhole of ~75 ACK timeouts no request fails. */
    @Test
    void retryCountSevenRetriesForeverOnRxe() {
        try (Wire wire = new Wire()) {
            Run run = run("retry_cnt 7", REQUESTS, 12, 7, List.of(
                    new WireStream.Step(0, "loss 100%", () -> wire.netem("loss 100%")),
                    new WireStream.Step(1500, "repaired", wire::repair)), wire);
            long retries = run.a("completer_retry_err");
            System.out.printf("wire-faults: retry_cnt 7 through a 1.5 s blackhole: %d retries, then %s%n", retries,
                    ended(run));
            assertTrue(retries > 7, retries + " retries");
            assertOutcome("retry_cnt 7", run, Expect.REPAIRED);
            row("blackhole 1.5 s, retry_cnt 7", "netem loss 100% both ways 1.5 s, ACK timeout 16.8 ms, "
                    + wire.counts(), run);
        }
    }

    /**
     * Runs a stream of {@code requests} (drawn from the fault's name) under {@code steps}, bounded by
     * 40 s and 0.1 s a request, then repairs the wire.
     */
    private static Run run(String fault, int requests, int timeoutCode, int retries, List<WireStream.Step> steps,
            Wire wire) {
        Map<String, Long> a0 = WireCounters.rxe(a);
        Map<String, Long> b0 = WireCounters.rxe(b);
        WireStream stream = new WireStream(a, b, new WirePlan(requests, fault.hashCode()), WINDOW, timeoutCode,
                retries);
        try (stream) {
            stream.run(steps, Duration.ofSeconds(40).plusMillis(100L * requests));
        }
        wire.close();
        return new Run(stream, a0, WireCounters.rxe(a), b0, WireCounters.rxe(b));
    }

    /**
     * Prints the case's row of the reliability table ({@code ci/faults}), and a line of what rxe
     * counted on the requester (retries, sequence NAKs, refused frames) and the responder
     * (duplicate requests).
     */
    private static void row(String fault, String injected, Run run) {
        WireStream stream = run.stream();
        ReliabilityRow.print("raw RC verbs, " + a.ctx.name() + " ↔ " + b.ctx.name(), fault, injected,
                stream.requestsChecked(), stream.bytesChecked(), stream.wrongSuccesses().size(), ended(run));
        System.out.printf("wire-faults: %s: %d of %d requests posted (%d SENDs), %d SUCCESS; rxe: %d retries, %d NAK"
                        + " seq, %d duplicate requests, %d send_err%n", fault, stream.posted(), stream.planned(),
                stream.receivesPosted(), stream.succeeded(), run.a("completer_retry_err"), run.a("rcvd_seq_err"),
                run.b("duplicate_request"), run.a("send_err"));
    }

    private static String ended(Run run) {
        WireStream stream = run.stream();
        if (stream.failure() == null) {
            return stream.wrongSuccesses().isEmpty() ? "all SUCCESS" : "all SUCCESS, WRONG: " + stream.wrongSuccesses();
        }
        String after = stream.stepsRun() == 0 ? " " + stream.failureAfterStart() / 1_000_000 + " ms into the stream"
                : " " + stream.failureAfterStep(0, true) / 1_000_000 + " ms after the fault";
        String ended = stream.errors() > 0 ? stream.failure() + after + ", " + stream.flushed() + " flushed"
                : "WR_FLUSH_ERR" + after + " (send_err +" + run.a("send_err") + "), " + stream.flushed() + " flushed";
        return stream.wrongSuccesses().isEmpty() ? ended
                : stream.wrongSuccesses().stream().map(Object::toString).collect(Collectors.joining("; ")) + ", then "
                + ended;
    }

    private static void assertOutcome(String fault, Run run, Expect expect) {
        WireStream stream = run.stream();
        List<WireStream.WrongSuccess> wrong = stream.wrongSuccesses();
        if (expect.wrongRead && !wrong.isEmpty()) {
            assertEquals(1, wrong.size(), fault + ": " + wrong);
            WireStream.WrongSuccess w = wrong.getFirst();
            assertTrue(w.opcode() == SendOpcode.RDMA_READ && w.tailUnwritten()
                            && w.request() == stream.firstFailure() - 1 && isFlushOnly(stream),
                    fault + ": only rxe's READ with a response out of sequence may be wrong (its tail unwritten, the rest flushed): "
                            + w + "; " + stream.state());
            return;
        }
        assertTrue(wrong.isEmpty(), fault + ": " + wrong);
        WcStatus failure = stream.failure();
        if (failure == null) {
            return;
        }
        boolean retryExceeded = failure == WcStatus.RETRY_EXC_ERR;
        boolean refusedFrame = isFlushOnly(stream) && run.a("send_err") > 0;
        boolean allowed = expect.retryExceeded && retryExceeded || expect.refusedFrame && refusedFrame;
        if (!allowed) {
            fail(fault + " (" + expect + "): the QP failed with " + failure + ", send_err +" + run.a("send_err")
                    + ": " + stream.state());
        }
    }

    /** The QP failed with flushes only: no request completed with an error of its own. */
    private static boolean isFlushOnly(WireStream stream) {
        return stream.failure() == WcStatus.WR_FLUSH_ERR && stream.errors() == 0;
    }

    /** 4.096 µs × 2^code, in ms. */
    private static double timeoutMillis(int code) {
        return 4.096e-3 * (1L << code);
    }

    /**
     * A case's faults on the veth's two ends, undone by {@link #repair}, and netem's counts for the
     * case, taken on close. Netem stays installed (replacing a live root qdisc would itself fail the
     * QP): a repair changes it back to passing everything. Its counts run on from case to case, so a
     * case's own are the difference from the last case's.
     */
    private static final class Wire implements AutoCloseable {
        private static final long[][] COUNTED = new long[2][2];
        private final boolean[] down = new boolean[2];
        private boolean netem;
        private String counts;

        void netem(String spec) {
            netem = true;
            ends[0].netem(spec);
            ends[1].netem(spec);
        }

        /** End {@code i} (0 = n0, the requester's; 1 = n1, the responder's) down: both lose their carrier. */
        void down(int i) {
            down[i] = true;
            ends[i].down();
        }

        void up(int i) {
            ends[i].up();
            down[i] = false;
        }

        /** Netem passing everything again (corrupt named: a change keeps a corruption it is not told of), links up. */
        void repair() {
            if (netem) {
                ends[0].netem("corrupt 0%");
                ends[1].netem("corrupt 0%");
                netem = false;
            }
            for (int i = 0; i < 2; i++) {
                if (down[i]) {
                    up(i);
                }
            }
        }

        /** What netem passed on and dropped on n0 and n1 in this case. */
        String counts() {
            return counts;
        }

        /** Repairs the wire and takes the case's counts (once). */
        @Override
        public void close() {
            repair();
            if (counts != null) {
                return;
            }
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < 2; i++) {
                long[] now = WireCounters.netem(ends[i]);
                s.append(i == 0 ? "" : ", ").append('n').append(i).append(" passed ").append(now[0] - COUNTED[i][0])
                        .append(" dropped ").append(now[1] - COUNTED[i][1]);
                COUNTED[i] = now;
            }
            counts = s.toString();
        }
    }
}
