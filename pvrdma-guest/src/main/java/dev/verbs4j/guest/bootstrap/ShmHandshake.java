package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
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
 * network namespace and one user. What the hellos said is then proved, in step on both sides:
 * each step ends with both telling each other how it went over the bootstrap socket, so a
 * failure on either side is a {@link ShmChannelFallback} on both, and the exchange goes on to
 * RDMA or TCP over the same socket.
 * <ol>
 *   <li>one side (the lower pid, then port) listens on an abstract unix socket named by 128
 *   random bits and sends the name over the bootstrap socket; the other connects, which only
 *   works in the same network namespace on the same kernel</li>
 *   <li>each checks the other's pid and uid as the kernel saw them at connect (SO_PEERCRED)
 *   against what its hello stated: a socket name seen by some third process gets it nowhere</li>
 *   <li>the segment and the eventfds go over the unix socket ({@link ShmChannel#open}); only when
 *   both sides have theirs does either attach it to its loop. The bootstrap socket is then
 *   closed, the unix socket stays as the channel's sign of life</li>
 * </ol>
 */
final class ShmHandshake {
    private static final String NAME_PREFIX = "verbs4j-shm-";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ShmHandshake() {}

    static Channel connect(NativeSocket tcp, BootstrapStreams streams, BootstrapHello mine, BootstrapHello theirs,
                           TransportChoice choice, int maxMessageSize, ChannelConfig config, CompletionLoop loop,
                           boolean ownsLoop) throws IOException, ShmChannelFallback {
        boolean creator = mine.host().pid() != theirs.host().pid() ? mine.host().pid() < theirs.host().pid()
                : tcp.localAddress().getPort() < tcp.remoteAddress().getPort();
        UnixSocket socket = creator ? listenAndAccept(streams, config, theirs.host())
                : connectToPeer(streams, config, theirs.host());
        ShmChannel channel = null;
        String failure = null;
        try {
            channel = ShmChannel.open(socket, creator, theirs.sendQueueDepth(), choice, maxMessageSize, config, loop,
                    ownsLoop);
        } catch (IOException | RuntimeException e) {
            failure = "cannot set the segment up: " + e.getMessage(); // open closed the unix socket
        }
        try {
            bothOutcomes(streams, failure);
        } catch (IOException | RuntimeException | ShmChannelFallback e) {
            if (channel != null) {
                channel.abandon();
            }
            throw e;
        }
        channel.attach();
        tcp.close();
        return channel;
    }

    /** The creator's side of steps 1 and 2: the verified unix socket, or a fallback both sides take. */
    private static UnixSocket listenAndAccept(BootstrapStreams streams, ChannelConfig config, SameHostFacts peer)
            throws IOException, ShmChannelFallback {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        String name = NAME_PREFIX + HexFormat.of().formatHex(nonce);
        UnixSocket listener;
        try {
            listener = UnixSocket.listenAbstract(name);
        } catch (RuntimeException e) {
            streams.sendOutcome("cannot listen on an abstract unix socket: " + e.getMessage());
            throw new ShmChannelFallback("cannot listen on an abstract unix socket: " + e.getMessage());
        }
        UnixSocket socket = null;
        try (listener) {
            streams.sendOutcome(null);
            streams.send(out -> out.writeUTF(name));
            giveUpIf(null, streams.readOutcome());
            String failure;
            try {
                socket = listener.accept(config.connectTimeout());
                failure = credentialsGap(socket.peerCredentials(), peer);
            } catch (IOException | RuntimeException e) {
                failure = "the peer's connect to the abstract unix socket did not arrive: " + e.getMessage();
            }
            bothOutcomes(streams, failure);
            return socket;
        } catch (IOException | RuntimeException | ShmChannelFallback e) {
            closeIfOpen(socket);
            throw e;
        }
    }

    /** The other side of steps 1 and 2. */
    private static UnixSocket connectToPeer(BootstrapStreams streams, ChannelConfig config, SameHostFacts peer)
            throws IOException, ShmChannelFallback {
        giveUpIf(null, streams.readOutcome());
        String name = streams.in.readUTF();
        UnixSocket socket = null;
        String failure = null;
        if (!name.startsWith(NAME_PREFIX) || name.length() != NAME_PREFIX.length() + 32) {
            failure = "the peer named no socket of ours (" + PeerText.printable(name, 80) + ")";
        } else {
            try {
                socket = UnixSocket.connectAbstract(name, config.connectTimeout());
            } catch (IOException | RuntimeException e) {
                failure = "cannot reach the peer's abstract unix socket, so it is not in this network namespace: "
                        + e.getMessage();
            }
        }
        try {
            streams.sendOutcome(failure);
            giveUpIf(failure, null);
            bothOutcomes(streams, credentialsGap(socket.peerCredentials(), peer));
            return socket;
        } catch (IOException | RuntimeException | ShmChannelFallback e) {
            closeIfOpen(socket);
            throw e;
        }
    }

    private static void closeIfOpen(UnixSocket socket) {
        if (socket != null) {
            socket.close();
        }
    }

    /** The end of a step: this side's outcome sent, the peer's read; a fallback on both sides when either failed. */
    private static void bothOutcomes(BootstrapStreams streams, String failure) throws IOException, ShmChannelFallback {
        streams.sendOutcome(failure);
        giveUpIf(failure, streams.readOutcome());
    }

    /** Why the process at the socket's other end is not the one that stated {@code stated}, or null. */
    private static String credentialsGap(UnixSocket.PeerCredentials seen, SameHostFacts stated) {
        if (seen.pid() != stated.pid() || seen.uid() != stated.uid()) {
            return "the process at the unix socket (pid " + seen.pid() + ", uid " + seen.uid()
                    + ") is not the one that stated pid " + stated.pid() + ", uid " + stated.uid();
        }
        return null;
    }

    private static void giveUpIf(String here, String atPeer) throws ShmChannelFallback {
        if (here != null || atPeer != null) {
            throw new ShmChannelFallback(here != null ? here : "peer: " + atPeer);
        }
    }
}
