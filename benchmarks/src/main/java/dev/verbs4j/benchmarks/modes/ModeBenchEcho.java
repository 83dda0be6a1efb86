package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CompletableFuture;

/**
 * The server's side of the mode benchmark, run on its completion loop thread: learn the counts
 * from the first message, echo every ping, and after the last one send the CPU time this process
 * spent over the measured round trips. {@link #ended()} completes when the client closes.
 */
final class ModeBenchEcho implements ChannelListener {
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
    public void onMessage(Channel channel, ChannelMessage message) {
        try {
            if (total < 0) {
                warmup = message.data().get(INT, 0);
                total = warmup + message.data().get(INT, 4);
                return;
            }
            if (echoed == warmup) {
                cpuAtStart = ProcessCpu.nanos();
            }
            channel.send(message.data());
            if (++echoed == total) {
                MemorySegment report = MemorySegment.ofArray(new long[1]);
                report.set(LONG, 0, ProcessCpu.nanos() - cpuAtStart);
                channel.send(report);
            }
        } catch (ChannelException e) {
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
