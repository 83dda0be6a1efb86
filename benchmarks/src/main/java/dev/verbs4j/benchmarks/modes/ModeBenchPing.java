package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The client's round trips answered on the completion loop thread: each echo is taken there,
 * timed, and the next ping sent, so the round trip is the loop's, with no hand-off to another
 * thread. It uses the channel's garbage-free calls, as a program that answers on the loop would:
 * echoes are read where they arrive and pings are offered from native memory, with no future to
 * complete. The first ping of a round and the control queries come from the calling thread.
 */
final class ModeBenchPing implements InPlaceListener, ModeBenchPinger {
    /** A round that makes no progress for this long has stalled: fail rather than wait for ever. */
    private static final Duration STALL = Duration.ofSeconds(30);

    private final Channel channel;
    private final MemorySegment payload;
    private long[] roundTrips = new long[0];
    private int roundLength;
    private volatile int received; // read by the waiting thread to see progress
    private long sentAt;
    private volatile CompletableFuture<Void> roundDone = new CompletableFuture<>();
    private volatile CompletableFuture<ModeBenchControl.Report> reply = new CompletableFuture<>();

    ModeBenchPing(Channel channel, int size) {
        this.channel = channel;
        this.payload = Arena.ofAuto().allocate(size).fill((byte) 0x6B);
    }

    @Override
    public long[] round(int count) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        roundTrips = new long[count];
        roundLength = count;
        roundDone = done;
        received = 0; // the volatile write the loop thread reads first
        ping();
        awaitProgressing(done);
        return roundTrips;
    }

    @Override
    public ModeBenchControl.Report query() {
        CompletableFuture<ModeBenchControl.Report> answer = new CompletableFuture<>();
        reply = answer;
        ModeBenchControl.ask(channel);
        return CompletionModeBench.await(answer);
    }

    @Override
    public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                          int immediate) {
        long now = System.nanoTime();
        if (hasImmediate) {
            reply.complete(ModeBenchControl.Report.of(buffer, offset));
            return;
        }
        int i = received;
        roundTrips[i] = now - sentAt;
        received = i + 1;
        if (i + 1 == roundLength) {
            roundDone.complete(null);
        } else {
            ping();
        }
    }

    private void ping() {
        try {
            sentAt = System.nanoTime();
            if (!channel.offer(payload, false, 0)) {
                roundDone.completeExceptionally(new IllegalStateException("the send queue is full with one ping out"));
            }
        } catch (ChannelException e) {
            roundDone.completeExceptionally(e);
        }
    }

    @Override
    public void onClosed(Channel channel, ChannelException cause) {
        RuntimeException why = cause != null ? cause
                : new IllegalStateException("the server closed after " + received + " echoes of a round");
        roundDone.completeExceptionally(why);
        reply.completeExceptionally(why);
    }

    /** Waits for the round, for as long as echoes keep coming. */
    private void awaitProgressing(CompletableFuture<Void> done) {
        int seen = -1;
        while (true) {
            try {
                done.get(STALL.toMillis(), TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                if (received == seen) {
                    throw new IllegalStateException("no echo for " + STALL.toSeconds() + " s after " + seen);
                }
                seen = received;
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
