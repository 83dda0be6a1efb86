package dev.verbs4j.examples.quickstart;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Quick-start: the Channel API, one interface over shared memory, RDMA and TCP. {@code auto}
 * takes shared memory between two processes of one user on one machine, else RDMA when both ends
 * can, else TCP; {@code shm}, {@code rdma} and {@code tcp} force one. The first line each side
 * prints says which transport carries the channel and why.
 *
 * <pre>
 * ... dev.verbs4j.examples.quickstart.ChannelTransport server 18519 auto|rdma|tcp|shm
 * ... dev.verbs4j.examples.quickstart.ChannelTransport client SERVER 18519 auto|rdma|tcp|shm
 * </pre>
 */
public final class ChannelTransport {
    private static final long SECONDS = 60;

    private ChannelTransport() {}

    /**
     * Runs one side.
     *
     * @param args the command line shown in the class comment
     * @throws Exception when a verb, the socket or a wait fails: the program ends with the cause
     */
    public static void main(String[] args) throws Exception {
        boolean server = args.length == 3 && args[0].equals("server");
        if (!server && !(args.length == 4 && args[0].equals("client"))) {
            throw new IllegalArgumentException("usage: server PORT TRANSPORT | client HOST PORT TRANSPORT");
        }
        // README:begin channel
        ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.parse(args[args.length - 1]));
        if (server) {
            try (ChannelServer listener = ChannelServer.listen("0.0.0.0", Integer.parseInt(args[1]), config)) {
                System.out.println("listening on port " + listener.port());
                try (Channel channel = listener.accept(Duration.ofSeconds(SECONDS))) {
                    System.out.println("transport: " + channel.transport().describe());
                    ChannelMessage request = channel.receive().get(SECONDS, TimeUnit.SECONDS);
                    System.out.println("received: " + new String(request.toArray(), StandardCharsets.UTF_8));
                    reply(channel, "pong");
                }
            }
        } else {
            try (Channel channel = ChannelConnector.connect(args[1], Integer.parseInt(args[2]), config)) {
                System.out.println("transport: " + channel.transport().describe());
                reply(channel, "ping");
                ChannelMessage answer = channel.receive().get(SECONDS, TimeUnit.SECONDS);
                System.out.println("received: " + new String(answer.toArray(), StandardCharsets.UTF_8));
            }
        }
        // README:end
    }

    /** Sends {@code text}; the channel copies it, so the arena may close as soon as the send is done. */
    private static void reply(Channel channel, String text) throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment message = arena.allocateFrom(text, StandardCharsets.UTF_8);
            channel.send(message.asSlice(0, text.length())).get(SECONDS, TimeUnit.SECONDS);
        }
    }
}
