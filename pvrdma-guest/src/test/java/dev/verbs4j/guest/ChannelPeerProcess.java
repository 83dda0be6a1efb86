package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.verbs.RemoteRegion;
import java.io.File;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The far end of a channel in its own JVM, so a test can kill it (or run it in another network
 * namespace). Args: HOST PORT TRANSPORT MODE MAX_MESSAGE stream|echo [DEVICE GID_INDEX]. Prints
 * the transport line first. "refusals" tries a send with immediate data and an RDMA WRITE and prints
 * whether each went out or was refused (then echoes). "stream" sends pattern messages 0, 1, 2... of MAX_MESSAGE bytes until
 * killed; "echo" returns every message until the channel ends.
 */
public final class ChannelPeerProcess {
    /**
     * How long either end of a channel with a child JVM waits in the bootstrap exchange: the
     * child's cold start on the rig's emulated CPU can outlast the 10 s default.
     */
    static final Duration BOOTSTRAP_WAIT = Duration.ofSeconds(60);

    private ChannelPeerProcess() {}

    public static void main(String[] args) throws Exception {
        ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.parse(args[2]))
                .mode(CompletionMode.parse(args[3])).maxMessageSize(Integer.parseInt(args[4]))
                .connectTimeout(BOOTSTRAP_WAIT);
        if (args.length > 7) {
            config.device(args[6]).gidIndex(Integer.parseInt(args[7]));
        }
        try (Channel channel = ChannelConnector.connect(args[0], Integer.parseInt(args[1]), config)) {
            System.out.println("transport: " + channel.transport().describe());
            System.out.flush();
            if (args[5].equals("refusals")) { // what this side's channel refuses, then echo
                System.out.println("immediate: " + refusal(() -> channel.send(MemorySegment.ofArray(new byte[8]), 7)));
                try (RegisteredRegion local = channel.register(64)) {
                    System.out.println("write: " + refusal(() -> channel.write(local, 0,
                            new RemoteRegion(0, 0, 64), 0, 64)));
                }
                System.out.flush();
            }
            if (args[5].equals("stream")) {
                for (int i = 0; ; i++) {
                    channel.send(ChannelTestBytes.pattern(i, config.maxMessageSize()));
                }
            }
            while (true) {
                ChannelMessage m;
                try {
                    m = channel.receive().get();
                } catch (java.util.concurrent.ExecutionException e) {
                    System.out.println("ended: " + e.getCause().getMessage());
                    return;
                }
                (m.hasImmediate() ? channel.send(m.data(), m.immediate()) : channel.send(m.data())).get();
            }
        }
    }

    /** "sent" or "UNSUPPORTED: why": what {@code operation} did on this channel (waiting for it to complete). */
    private static String refusal(Supplier<CompletableFuture<Void>> operation) {
        try {
            operation.get().join();
            return "sent";
        } catch (ChannelException e) {
            return e.error() + ": " + e.getMessage();
        } catch (CompletionException e) {
            return "failed: " + e.getCause();
        }
    }

    /** Starts the peer in a child JVM with this test class path; {@code prefix} (e.g. ip netns exec) goes first. */
    static Process start(List<String> prefix, String host, int port, TransportPreference transport, CompletionMode mode,
                         int maxMessage, String behaviour) throws Exception {
        File log = File.createTempFile("channel-peer-", ".log");
        log.deleteOnExit();
        return start(prefix, host, port, transport, mode, maxMessage, behaviour, log);
    }

    /** As above, the child's output (stdout and stderr) going to {@code log}. */
    static Process start(List<String> prefix, String host, int port, TransportPreference transport, CompletionMode mode,
                         int maxMessage, String behaviour, File log) throws Exception {
        return start(prefix, host, port, transport, mode, maxMessage, behaviour, List.of(), log);
    }

    private static Process start(List<String> prefix, String host, int port, TransportPreference transport,
                                 CompletionMode mode, int maxMessage, String behaviour, List<String> device, File log)
            throws Exception {
        return start(prefix, testClassPath(), host, port, transport, mode, maxMessage, behaviour, device, log);
    }

    /** The class path of this test JVM, which the child runs with. */
    static String testClassPath() {
        return System.getProperty("java.class.path") + File.pathSeparator
                + System.getProperty("surefire.test.class.path", "");
    }

    /**
     * As {@link #start(List, String, int, ChannelConfig, String, File)}, the child running with
     * {@code classPath} (a copy that a peer under another uid can read).
     */
    static Process start(List<String> prefix, String classPath, String host, int port, ChannelConfig peer,
                         String behaviour, File log) throws Exception {
        return start(prefix, classPath, host, port, peer.transport(), peer.mode(), peer.maxMessageSize(), behaviour,
                List.of(), log);
    }

    private static Process start(List<String> prefix, String classPath, String host, int port,
                                 TransportPreference transport, CompletionMode mode, int maxMessage, String behaviour,
                                 List<String> device, File log) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(classPath);
        command.add(ChannelPeerProcess.class.getName());
        command.addAll(List.of(host, Integer.toString(port), transport.name(), mode.name(), Integer.toString(maxMessage),
                behaviour));
        command.addAll(device);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
    }

    static Process start(String host, int port, TransportPreference transport, CompletionMode mode, int maxMessage,
                         String behaviour) throws Exception {
        return start(List.of(), host, port, transport, mode, maxMessage, behaviour);
    }

    /** As {@link #start(String, int, ChannelConfig, String)}, started behind {@code prefix} (e.g. ip netns exec NS). */
    static Process start(List<String> prefix, String host, int port, ChannelConfig peer, String behaviour, File log)
            throws Exception {
        List<String> device = peer.device() == null ? List.of()
                : List.of(peer.device(), Integer.toString(peer.gidIndex()));
        return start(prefix, host, port, peer.transport(), peer.mode(), peer.maxMessageSize(), behaviour, device, log);
    }

    /** The peer as {@code peer} configures it, device and GID index included (when it names a device). */
    static Process start(String host, int port, ChannelConfig peer, String behaviour) throws Exception {
        List<String> device = peer.device() == null ? List.of()
                : List.of(peer.device(), Integer.toString(peer.gidIndex()));
        File log = File.createTempFile("channel-peer-", ".log");
        log.deleteOnExit();
        return start(List.of(), host, port, peer.transport(), peer.mode(), peer.maxMessageSize(), behaviour, device,
                log);
    }
}
