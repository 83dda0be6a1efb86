package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.tcp.TcpChannel;
import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.TransportKind;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.SameHostFacts;
import dev.verbs4j.unix.NativeSocket;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.guest.channel.ChannelBase;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets a channel up over a freshly connected TCP socket. Both sides state their capabilities
 * ({@link BootstrapHello}), both apply {@link TransportSelector} to the two statements, then
 * either connect queue pairs (exchanging QP number, PSN and GID over this socket, which then
 * stays as the RDMA channel's control and liveness connection), set up shared memory between
 * processes on one kernel, in one network namespace, under one user ({@link ShmHandshake}), or
 * keep the socket as the TCP channel itself. A shared-memory set-up that fails falls back to RDMA
 * (or TCP, as the capabilities say) unless configuration forced shm; an RDMA connect that fails
 * or times out falls back to TCP unless configuration forced RDMA.
 */
final class BootstrapExchange {
    private static final Logger LOG = LoggerFactory.getLogger(BootstrapExchange.class);

    private BootstrapExchange() {}

    /**
     * What this side can offer, found without any socket. A client calls it before connecting and
     * a server before it listens, so neither side's wait for the other's hello includes the other
     * JVM's first touch of libibverbs (seconds in a cold JVM on an emulated CPU).
     *
     * @throws ChannelException {@link ChannelError#CONNECT_FAILED} when the probe itself fails
     */
    public static Capabilities probe(ChannelConfig config) {
        try {
            return CapabilitiesProbe.probe(config.device(), config.gidIndex(),
                    config.bytesToRegister(config.maxMessageSize()));
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    /** Runs the exchange on {@code socket}, probing this side first (the server's way: it learns of a client by its socket). */
    public static Channel establish(NativeSocket socket, ChannelConfig config) {
        return establish(socket, config, () -> probe(config));
    }

    /** Runs the exchange on {@code socket} with this side's capabilities already probed. */
    public static Channel establish(NativeSocket socket, ChannelConfig config, Capabilities local) {
        return establish(socket, config, () -> local);
    }

    /** Closes the socket on any failure, the probe's included. */
    private static Channel establish(NativeSocket socket, ChannelConfig config, Supplier<Capabilities> local) {
        try {
            return run(socket, config, local.get());
        } catch (ChannelException e) {
            closeQuietly(socket);
            throw e;
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            throw new ChannelException(ChannelError.CONNECT_FAILED, "the peer did not answer the bootstrap exchange "
                    + "within " + config.connectTimeout() + ": " + e.getMessage(), e);
        } catch (EOFException e) {
            closeQuietly(socket);
            throw new ChannelException(ChannelError.CONNECT_FAILED,
                    "the peer closed the connection in the middle of the bootstrap exchange", e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            throw failed(e);
        }
    }

    private static ChannelException failed(Exception e) {
        return new ChannelException(ChannelError.CONNECT_FAILED, "the bootstrap exchange failed: " + e.getMessage(), e);
    }

    private static Channel run(NativeSocket socket, ChannelConfig config, Capabilities local) throws IOException {
        InetSocketAddress here = socket.localAddress(), there = socket.remoteAddress();
        ChannelBase channel = (ChannelBase) choose(socket, config, local);
        channel.addresses(here, there);
        return channel;
    }

    private static Channel choose(NativeSocket socket, ChannelConfig config, Capabilities local) throws IOException {
        BootstrapStreams streams = new BootstrapStreams(socket, config.connectTimeout());
        socket.setPeerLossTimeout(config.peerLossTimeout()); // TCP's stream, or RDMA's control connection
        BootstrapHello mine = new BootstrapHello(config.transport(), config.maxMessageSize(), config.sendQueueDepth(),
                local, SameHostFacts.here());
        // the whole statement within the time-out, not each byte: a trickling peer holds no thread for long
        streams.finishBy(config.connectTimeout(), "the peer's bootstrap statement");
        streams.send(mine::writeTo);
        BootstrapHello theirs = BootstrapHello.readFrom(streams.in);
        streams.finishBy(null, null);
        int maxMessage = BootstrapHello.agreedMaxMessageSize(mine, theirs);
        LOG.debug("bootstrap over {}: here {}, peer {}", socket, local, theirs.capabilities());
        TransportChoice choice = TransportSelector.choose(config.transport(), local, mine.host(), theirs.preference(),
                theirs.capabilities(), theirs.host());
        boolean rdmaForced = config.transport() == TransportPreference.RDMA
                || theirs.preference() == TransportPreference.RDMA;
        boolean shmForced = config.transport() == TransportPreference.SHM
                || theirs.preference() == TransportPreference.SHM;

        boolean ownsLoop = config.loop() == null;
        CompletionLoop loop = ownsLoop ? CompletionLoop.start(config.mode()) : config.loop();
        try {
            String shmNote = null; // why not shm, for a TCP fallback's reason after a failed RDMA connect
            if (choice.kind() == TransportKind.SHM) {
                try {
                    Channel channel = ShmHandshake.connect(socket, streams, mine, theirs, choice, maxMessage, config,
                            loop, ownsLoop);
                    LOG.info("transport: {}", choice.describe());
                    return channel;
                } catch (ShmChannelFallback e) {
                    if (shmForced) {
                        throw new ChannelException(ChannelError.CONNECT_FAILED,
                                "shm is forced by configuration but its set-up failed: " + e.getMessage(), e);
                    }
                    shmNote = TransportSelector.shmFailedNote(e.getMessage());
                    choice = TransportSelector.afterShmFailed(config.transport(), local, theirs.preference(),
                            theirs.capabilities(), e.getMessage());
                    LOG.warn("shm set-up failed, falling back to {}: {}", choice.kind().label(), e.getMessage());
                }
            } else if (config.transport() == TransportPreference.AUTO
                    && theirs.preference() == TransportPreference.AUTO) {
                shmNote = TransportSelector.notShmNote(mine.host().gapTo(theirs.host()));
            }
            if (choice.isRdma()) {
                try {
                    Channel channel = RdmaHandshake.connect(socket, streams, choice, local, maxMessage, config,
                            loop, ownsLoop);
                    LOG.info("transport: {} ({})", choice.describe(), choice.reason());
                    return channel;
                } catch (RdmaChannelFallback e) {
                    if (rdmaForced) {
                        throw new ChannelException(ChannelError.CONNECT_FAILED,
                                "rdma is forced by configuration but the RDMA connect failed: " + e.getMessage(), e);
                    }
                    choice = TransportChoice.tcp("RDMA connect failed: " + e.getMessage());
                    if (shmNote != null) {
                        choice = TransportSelector.withNote(choice, shmNote);
                    }
                    LOG.warn("RDMA connect failed, falling back to TCP: {}", e.getMessage());
                }
            }
            Channel channel = TcpChannel.start(socket, choice, maxMessage, config, loop, ownsLoop);
            LOG.info("transport: {}", choice.describe());
            return channel;
        } catch (IOException | RuntimeException e) {
            if (ownsLoop) {
                loop.close();
            }
            throw e;
        }
    }

    private static void closeQuietly(NativeSocket socket) {
        try {
            socket.close();
        } catch (RuntimeException ignored) {
            // already failing
        }
    }
}
