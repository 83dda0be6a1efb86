package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * The client's side of the mode benchmark. Each echo is taken on the completion loop thread,
 * which times it and sends the next ping, so the round trip is the loop's, with no hand-off to
 * another thread. After the last echo comes the server's CPU report. It uses the channel's
 * garbage-free calls, as a program that answers on the loop would: echoes are read where they
 * arrive and pings are offered from native memory, with no future to complete.
 */
final class ModeBenchPing implements InPlaceListener {
    /** What one run measured: round-trip nanoseconds and the CPU nanoseconds of both processes. */
    record Result(long[] roundTrips, long clientCpuNanos, long serverCpuNanos) {}

    private final MemorySegment payload;
    private final int warmup;
    private final long[] roundTrips;
    private final CompletableFuture<Result> result = new CompletableFuture<>();
    private volatile int received; // read by the waiting thread to see progress
    private long sentAt;
    private long cpuAtStart;
    private long clientCpu;

    ModeBenchPing(int size, int warmup, int iterations) {
        this.payload = Arena.ofAuto().allocate(size).fill((byte) 0x6B);
        this.warmup = warmup;
        this.roundTrips = new long[iterations];
    }

    CompletableFuture<Result> result() {
        return result;
    }

    /** Echoes received so far (warm-up included). */
    int progress() {
        return received;
    }

    /** Sends the first ping; the rest follow from {@link #onMessage}. */
    void start(Channel channel) {
        ping(channel);
    }

    @Override
    public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                          int immediate) {
        long now = System.nanoTime();
        int total = warmup + roundTrips.length;
        if (received == total) {
            result.complete(new Result(roundTrips, clientCpu, buffer.get(ModeBenchEcho.LONG, offset)));
            return;
        }
        if (received >= warmup) {
            roundTrips[received - warmup] = now - sentAt;
        }
        if (++received == total) {
            clientCpu = ProcessCpu.nanos() - cpuAtStart;
        } else {
            ping(channel);
        }
    }

    private void ping(Channel channel) {
        if (received == warmup) {
            cpuAtStart = ProcessCpu.nanos();
        }
        try {
            sentAt = System.nanoTime();
            if (!channel.offer(payload, false, 0)) {
                result.completeExceptionally(new IllegalStateException("the send queue is full with one ping out"));
            }
        } catch (ChannelException e) {
            result.completeExceptionally(e);
        }
    }

    @Override
    public void onClosed(Channel channel, ChannelException cause) {
        result.completeExceptionally(cause != null ? cause
                : new IllegalStateException("the server closed after " + received + " echoes"));
    }
}
