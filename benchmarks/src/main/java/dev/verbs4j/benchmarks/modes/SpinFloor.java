package dev.verbs4j.benchmarks.modes;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The floor of any same-host channel on this machine: two threads ping-pong a counter through
 * one shared word each (on cache lines of their own), spinning, with no message and no loop.
 * A round trip is two cache-line hand-offs between cores, as two processes on one segment
 * would make them.
 */
final class SpinFloor {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final long PING = 0, PONG = 128;

    private SpinFloor() {}

    /** {@code count} round trips after {@code count / 10} unmeasured ones. */
    static RoundTrips roundTrips(int count) throws InterruptedException {
        int warmup = count / 10;
        long total = warmup + count;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment words = arena.allocate(256, 128);
            Thread echo = Thread.ofPlatform().start(() -> {
                for (long i = 1; i <= total; i++) {
                    while ((long) WORD.getAcquire(words, PING) != i) {
                        Thread.onSpinWait();
                    }
                    WORD.setRelease(words, PONG, i);
                }
            });
            long[] roundTrips = new long[count];
            for (long i = 1; i <= total; i++) {
                long start = System.nanoTime();
                WORD.setRelease(words, PING, i);
                while ((long) WORD.getAcquire(words, PONG) != i) {
                    Thread.onSpinWait();
                }
                if (i > warmup) {
                    roundTrips[(int) (i - warmup - 1)] = System.nanoTime() - start;
                }
            }
            echo.join();
            return RoundTrips.of(roundTrips);
        }
    }
}
