package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelMessage;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * The mode benchmark with an application thread on each side, as {@code verbs4j pingpong} runs:
 * the client's thread sends and waits for the reply, the server's thread waits for each ping and
 * sends it back. Every message crosses between the loop thread and the application thread, which
 * is what most applications of a channel pay. Same counts message and CPU report as the loop variant.
 */
final class ModeBenchAppThread {
    private ModeBenchAppThread() {}

    /** Server: echo warm-up + measured pings, report this process's CPU, wait for the client to close. */
    static void serve(Channel channel) {
        MemorySegment counts = CompletionModeBench.await(channel.receive()).data();
        int warmup = counts.get(ModeBenchEcho.INT, 0);
        int total = warmup + counts.get(ModeBenchEcho.INT, 4);
        long cpuAtStart = 0;
        for (int i = 0; i < total; i++) {
            if (i == warmup) {
                cpuAtStart = ProcessCpu.nanos();
            }
            channel.send(CompletionModeBench.await(channel.receive()).data());
        }
        MemorySegment report = MemorySegment.ofArray(new long[1]);
        report.set(ModeBenchEcho.LONG, 0, ProcessCpu.nanos() - cpuAtStart);
        CompletionModeBench.await(channel.send(report));
        try {
            CompletionModeBench.await(channel.receive()); // nothing more comes: this ends with the client's close
        } catch (ChannelException closed) {
            // the client is done
        }
    }

    /** Client: one round trip at a time from this thread. */
    static ModeBenchPing.Result measure(Channel channel, int size, int warmup, int iterations) {
        MemorySegment payload = MemorySegment.ofArray(new byte[size]).fill((byte) 0x6B);
        long[] roundTrips = new long[iterations];
        long cpuAtStart = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            if (i == warmup) {
                cpuAtStart = ProcessCpu.nanos();
            }
            CompletableFuture<ChannelMessage> reply = channel.receive();
            long sentAt = System.nanoTime();
            channel.send(payload);
            CompletionModeBench.await(reply);
            if (i >= warmup) {
                roundTrips[i - warmup] = System.nanoTime() - sentAt;
            }
        }
        long clientCpu = ProcessCpu.nanos() - cpuAtStart;
        long serverCpu = CompletionModeBench.await(channel.receive()).data().get(ModeBenchEcho.LONG, 0);
        return new ModeBenchPing.Result(roundTrips, clientCpu, serverCpu);
    }
}
