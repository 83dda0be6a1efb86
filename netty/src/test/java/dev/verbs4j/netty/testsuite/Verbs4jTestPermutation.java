package dev.verbs4j.netty.testsuite;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.netty.Verbs4jChannelOption;
import dev.verbs4j.netty.Verbs4jIoHandler;
import dev.verbs4j.netty.Verbs4jServerSocketChannel;
import dev.verbs4j.netty.Verbs4jSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapComboFactory;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketTestPermutation;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.List;

/**
 * Netty's transport test suite on this transport: our server with our client only (a verbs4j
 * channel talks to a verbs4j channel), as Netty's own domain-socket tests pair their channels.
 * One event loop group per transport for the whole run, as the suite's own NIO group is.
 */
public final class Verbs4jTestPermutation extends SocketTestPermutation {
    /** Over the TCP fallback: any host. */
    public static final Verbs4jTestPermutation TCP = new Verbs4jTestPermutation(TransportPreference.TCP);
    /** Over RDMA forced (a fallback fails the test): the rig's rxe0. */
    public static final Verbs4jTestPermutation RDMA = new Verbs4jTestPermutation(TransportPreference.RDMA);

    private final TransportPreference transport;
    private final EventLoopGroup group;

    private Verbs4jTestPermutation(TransportPreference transport) {
        this.transport = transport;
        this.group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("testsuite-verbs4j-"
                + transport.name().toLowerCase(java.util.Locale.ROOT), true), Verbs4jIoHandler.newFactory());
    }

    /**
     * The allocator of the rig's runs over RDMA: Netty 4.2's default. The rig emulates its CPU;
     * the host's run over TCP takes all three of the suite's allocators.
     */
    public static List<ByteBufAllocator> rigAllocators() {
        return List.of(new AdaptiveByteBufAllocator(true));
    }

    private String device() {
        return transport == TransportPreference.RDMA ? System.getenv().getOrDefault("RIG_DEVICE", "rxe0") : null;
    }

    @Override
    public List<BootstrapComboFactory<ServerBootstrap, Bootstrap>> socket() {
        return combo(serverSocket(), clientSocket());
    }

    @Override
    public List<BootstrapFactory<ServerBootstrap>> serverSocket() {
        return List.of(() -> new ServerBootstrap().group(group).channel(Verbs4jServerSocketChannel.class)
                .option(Verbs4jChannelOption.TRANSPORT, transport)
                .childOption(Verbs4jChannelOption.TRANSPORT, transport)
                .childOption(Verbs4jChannelOption.DEVICE, device()));
    }

    @Override
    public List<BootstrapFactory<Bootstrap>> clientSocket() {
        return List.of(() -> new Bootstrap().group(group).channel(Verbs4jSocketChannel.class)
                .option(Verbs4jChannelOption.TRANSPORT, transport)
                .option(Verbs4jChannelOption.DEVICE, device()));
    }
}
