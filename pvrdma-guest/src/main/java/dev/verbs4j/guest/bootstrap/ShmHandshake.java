package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.probe.SameHostFacts;
import dev.verbs4j.guest.shm.ShmChannel;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.unix.NativeSocket;
import dev.verbs4j.unix.UnixSocket;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The shared-memory half of the bootstrap exchange, after both hellos stated one kernel, one
 * network namespace and one user. What the hellos said is then proved, in step on both sides
 * (each step ends with both telling each other how it went):
 * <ol>
 *   <li>one side (the lower pid, then port) listens on an abstract unix socket named by 128
 *   random bits and sends the name over the bootstrap socket; the other connects, which only
 *   works in the same network namespace on the same kernel</li>
 *   <li>each checks the other's pid and uid as the kernel saw them at connect (SO_PEERCRED)
 *   against what its hello stated: a socket name seen by some third process gets it nowhere</li>
 *   <li>the segment and the eventfds go over the unix socket ({@link ShmChannel#start}); the
 *   bootstrap socket is closed, the unix socket stays as the channel's sign of life</li>
 * </ol>
 */
final class ShmHandshake {
    private static final String NAME_PREFIX = "verbs4j-shm-";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ShmHandshake() {}

    static Channel connect(NativeSocket tcp, BootstrapStreams streams, BootstrapHello mine, BootstrapHello theirs,
                           TransportChoice choice, int maxMessageSize, ChannelConfig config, CompletionLoop loop,
                           boolean ownsLoop) throws IOException {
        boolean creator = mine.host().pid() != theirs.host().pid() ? mine.host().pid() < theirs.host().pid()
                : tcp.localAddress().getPort() < tcp.remoteAddress().getPort();
        UnixSocket socket = creator ? listenAndAccept(streams, config) : connectToPeer(streams, config);
        try {
            String failure = credentialsGap(socket.peerCredentials(), theirs.host());
            streams.sendOutcome(failure);
            String peerFailure = streams.readOutcome();
            if (failure != null || peerFailure != null) {
                throw failed(failure != null ? failure : "peer: " + peerFailure);
            }
            ShmChannel channel = ShmChannel.start(socket, creator, theirs.sendQueueDepth(), choice, maxMessageSize,
                    config, loop, ownsLoop);
            tcp.close();
            return channel;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private static UnixSocket listenAndAccept(BootstrapStreams streams, ChannelConfig config) throws IOException {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        String name = NAME_PREFIX + HexFormat.of().formatHex(nonce);
        try (UnixSocket listener = UnixSocket.listenAbstract(name)) {
            streams.send(out -> out.writeUTF(name));
            String peerFailure = streams.readOutcome();
            if (peerFailure != null) {
                throw failed("peer: " + peerFailure);
            }
            return listener.accept(config.connectTimeout());
        }
    }

    private static UnixSocket connectToPeer(BootstrapStreams streams, ChannelConfig config) throws IOException {
        String name = streams.in.readUTF();
        UnixSocket socket = null;
        String failure = null;
        if (!name.startsWith(NAME_PREFIX) || name.length() != NAME_PREFIX.length() + 32) {
            failure = "the peer named no socket of ours (" + name + ")";
        } else {
            try {
                socket = UnixSocket.connectAbstract(name, config.connectTimeout());
            } catch (IOException | RuntimeException e) {
                failure = "cannot reach the peer's abstract unix socket, so it is not in this network namespace: "
                        + e.getMessage();
            }
        }
        streams.sendOutcome(failure);
        if (failure != null) {
            throw failed(failure);
        }
        return socket;
    }

    /** Why the process at the socket's other end is not the one that stated {@code stated}, or null. */
    private static String credentialsGap(UnixSocket.PeerCredentials seen, SameHostFacts stated) {
        if (seen.pid() != stated.pid() || seen.uid() != stated.uid()) {
            return "the process at the unix socket (pid " + seen.pid() + ", uid " + seen.uid()
                    + ") is not the one that stated pid " + stated.pid() + ", uid " + stated.uid();
        }
        return null;
    }

    private static ChannelException failed(String why) {
        return new ChannelException(ChannelError.CONNECT_FAILED, "shm is forced by configuration but its set-up failed: "
                + why);
    }
}
