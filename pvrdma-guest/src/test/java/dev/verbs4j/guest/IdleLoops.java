package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionLoop;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** Waits until a loop stops waking, for the tests that then check that it stays asleep. */
final class IdleLoops {
    private static final Duration QUIET = Duration.ofMillis(200);
    private static final Duration GIVE_UP = Duration.ofSeconds(10);

    private IdleLoops() {}

    /**
     * The loop's wake-up count once it has not moved for {@link #QUIET}. The loop's linger after its
     * last driver and ADAPTIVE's spin end within milliseconds, but a loaded machine may schedule them
     * late; a loop that keeps napping never settles and fails here.
     */
    static long settledWakeups(CompletionLoop loop) {
        long deadline = System.nanoTime() + GIVE_UP.toNanos();
        long last = loop.engine().wakeups();
        while (System.nanoTime() < deadline) {
            LockSupport.parkNanos(QUIET.toNanos());
            long now = loop.engine().wakeups();
            if (now == last) {
                return now;
            }
            last = now;
        }
        throw new AssertionError("the loop kept waking for " + GIVE_UP.toSeconds() + " s (" + last + " wake-ups)");
    }
}
