package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelMessage;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * The mode benchmark with an application thread on each side, as {@code verbs4j pingpong} runs:
 * the client's thread sends and waits for the reply, the server's thread waits for each ping and
 * sends it back. Every message crosses between the loop thread and the application thread, which
 * is what most applications of a channel pay.
 */
final class ModeBenchAppThread implements ModeBenchPinger {
    private final Channel channel;
    private final MemorySegment payload;

    ModeBenchAppThread(Channel channel, int size) {
        this.channel = channel;
        this.payload = MemorySegment.ofArray(new byte[size]).fill((byte) 0x6B);
    }

    /** Server: echoes pings and answers queries until the client closes. */
    static void serve(Channel channel) {
        while (true) {
            ChannelMessage m;
            try {
                m = CompletionModeBench.await(channel.receive());
            } catch (ChannelException e) {
                if (e.error() == ChannelError.PEER_CLOSED) {
                    return; // the client is done
                }
                throw e;
            }
            if (m.hasImmediate()) {
                ModeBenchControl.answer(channel);
            } else {
                channel.send(m.data());
            }
        }
    }

    @Override
    public long[] round(int count) {
        long[] roundTrips = new long[count];
        for (int i = 0; i < count; i++) {
            CompletableFuture<ChannelMessage> reply = channel.receive();
            long sentAt = System.nanoTime();
            channel.send(payload);
            CompletionModeBench.await(reply);
            roundTrips[i] = System.nanoTime() - sentAt;
        }
        return roundTrips;
    }

    @Override
    public ModeBenchControl.Report query() {
        CompletableFuture<ChannelMessage> reply = channel.receive();
        ModeBenchControl.ask(channel);
        return ModeBenchControl.Report.of(CompletionModeBench.await(reply).data(), 0);
    }
}
