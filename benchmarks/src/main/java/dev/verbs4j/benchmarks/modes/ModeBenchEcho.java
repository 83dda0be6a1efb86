package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * The server's side of the mode benchmark, run on its completion loop thread: echo every ping
 * and answer the client's queries ({@link ModeBenchControl}). {@link #ended()} completes when
 * the client closes. Pings are read where they arrive and echoed with {@link Channel#offer}: no
 * copy into a message of their own, no future.
 */
final class ModeBenchEcho implements InPlaceListener {
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    CompletableFuture<Void> ended() {
        return ended;
    }

    @Override
    public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                          int immediate) {
        try {
            if (hasImmediate) {
                ModeBenchControl.answer(channel);
            } else if (!channel.offer(buffer.asSlice(offset, length), false, 0)) {
                throw new IllegalStateException("the send queue is full with one echo out");
            }
        } catch (RuntimeException e) {
            ended.completeExceptionally(e);
        }
    }

    @Override
    public void onClosed(Channel channel, ChannelException cause) {
        if (cause != null) {
            ended.completeExceptionally(cause);
        } else {
            ended.complete(null);
        }
    }
}
