package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;

/**
 * The server's side of the mode benchmark, run on its completion loop thread: learn the counts
 * from the first message, echo every ping, and after the last one send the CPU time this process
 * spent over the measured round trips. {@link #ended()} completes when the client closes. Pings
 * are read where they arrive and echoed with {@link Channel#offer}: no copy into a message of
 * their own, no future.
 */
final class ModeBenchEcho implements InPlaceListener {
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private int warmup;
    private int total = -1; // unknown until the first message
    private int echoed;
    private long cpuAtStart;

    CompletableFuture<Void> ended() {
        return ended;
    }

    @Override
    public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                          int immediate) {
        try {
            if (total < 0) {
                warmup = buffer.get(INT, offset);
                total = warmup + buffer.get(INT, offset + 4);
                return;
            }
            if (echoed == warmup) {
                cpuAtStart = ProcessCpu.nanos();
            }
            if (!channel.offer(buffer.asSlice(offset, length), false, 0)) {
                throw new IllegalStateException("the send queue is full with one echo out");
            }
            if (++echoed == total) {
                MemorySegment report = MemorySegment.ofArray(new long[1]);
                report.set(LONG, 0, ProcessCpu.nanos() - cpuAtStart);
                channel.send(report);
            }
        } catch (RuntimeException e) {
            ended.completeExceptionally(e);
        }
    }

    @Override
    public void onClosed(Channel channel, ChannelException cause) {
        if (cause != null) {
            ended.completeExceptionally(cause);
        } else if (echoed < total || total < 0) {
            ended.completeExceptionally(new IllegalStateException("the client left after " + echoed + " of " + total));
        } else {
            ended.complete(null);
        }
    }
}
