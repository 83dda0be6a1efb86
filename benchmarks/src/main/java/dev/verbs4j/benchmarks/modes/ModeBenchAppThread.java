package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ReceiveBuffer;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;

/**
 * The mode benchmark with an application thread on each side, as {@code verbs4j pingpong} runs:
 * the client's thread sends and waits for the reply, the server's thread waits for each ping and
 * sends it back, each receiving into one reused {@link ReceiveBuffer} (and driving the loop while
 * it waits). This is the path of an application that sends and waits, next to the loop rows'
 * listener.
 */
final class ModeBenchAppThread implements ModeBenchPinger {
    private final Channel channel;
    private final MemorySegment payload;
    private final ReceiveBuffer reply;

    ModeBenchAppThread(Channel channel, int size) {
        this.channel = channel;
        this.payload = MemorySegment.ofArray(new byte[size]).fill((byte) 0x6B);
        this.reply = new ReceiveBuffer(MemorySegment.ofArray(new byte[channel.maxMessageSize()]));
    }

    /** Server: echoes pings from where they landed and answers queries until the client closes. */
    static void serve(Channel channel) {
        ReceiveBuffer ping = new ReceiveBuffer(MemorySegment.ofArray(new byte[channel.maxMessageSize()]));
        while (true) {
            try {
                CompletionModeBench.receive(channel, ping);
            } catch (ChannelException e) {
                if (e.error() == ChannelError.PEER_CLOSED) {
                    return; // the client is done
                }
                throw e;
            }
            if (ping.hasImmediate()) {
                ModeBenchControl.answer(channel);
            } else {
                channel.send(ping.message());
            }
        }
    }

    @Override
    public long[] round(int count) {
        long[] roundTrips = new long[count];
        for (int i = 0; i < count; i++) {
            long sentAt = System.nanoTime();
            channel.send(payload);
            CompletionModeBench.receive(channel, reply);
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
