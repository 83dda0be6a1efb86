package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/**
 * A peer that lives a life of many channels, one after another, until it is killed: it connects
 * to a {@link dev.verbs4j.guest.bootstrap.ChannelServer} over RDMA (forced), sends
 * {@link SequencedMessage}s of mixed sizes, closes in order, and starts again. Args: HOST PORT
 * DEVICE MAX_MESSAGE MESSAGES_PER_CHANNEL.
 *
 * <p>It prints a line at each boundary, with the channel's number: {@code phase bootstrap N}
 * before connecting, {@code phase stream N} once the channel is up, {@code phase close N} before
 * close() and {@code phase closed N} after it. The RDMA connect (verbs objects and registered
 * buffers, the endpoints' exchange, RTR and RTS, one probe SEND each way) happens inside the
 * connect call, after the hellos; no call of the API starts or ends there, so it has no line of
 * its own. A test sees it from outside instead: the process's pinned memory grows when the
 * channel registers its buffers, the RDMA connect's first step ({@link PinnedMemoryWatch}).
 */
public final class ChannelLifePeer {
    private ChannelLifePeer() {}

    public static void main(String[] args) {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int maxMessage = Integer.parseInt(args[3]);
        int messages = Integer.parseInt(args[4]);
        ChannelConfig config = config(args[2], maxMessage).connectTimeout(ChannelPeerProcess.BOOTSTRAP_WAIT);
        MemorySegment buffer = Arena.global().allocate(maxMessage);
        for (int n = 0; ; n++) {
            phase("bootstrap", n);
            Channel channel = ChannelConnector.connect(host, port, config);
            phase("stream", n);
            for (int i = 0; i < messages; i++) {
                int size = SequencedMessage.write(buffer, n, i, maxMessage);
                channel.send(buffer.asSlice(0, size)); // copied at once; waits only while the send queue is full
            }
            phase("close", n);
            channel.close();
            phase("closed", n);
        }
    }

    /** Both ends' configuration: RDMA forced on {@code device}, small queues (the rig emulates its CPU). */
    static ChannelConfig config(String device, int maxMessage) {
        return ChannelConfig.defaults().transport(TransportPreference.RDMA).device(device).maxMessageSize(maxMessage)
                .receiveDepth(16).sendQueueDepth(16);
    }

    private static void phase(String name, int channel) {
        System.out.println("phase " + name + " " + channel);
        System.out.flush();
    }

    /** The command that runs this peer in a child JVM with this test JVM's class path. */
    static List<String> command(String host, int port, String device, int maxMessage, int messagesPerChannel) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", ChannelPeerProcess.testClassPath(),
                ChannelLifePeer.class.getName(), host, Integer.toString(port), device, Integer.toString(maxMessage),
                Integer.toString(messagesPerChannel));
    }
}
