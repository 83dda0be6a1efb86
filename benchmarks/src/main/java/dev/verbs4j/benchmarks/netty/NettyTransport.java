package dev.verbs4j.benchmarks.netty;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.netty.Verbs4jChannelOption;
import dev.verbs4j.netty.Verbs4jIoHandler;
import dev.verbs4j.netty.Verbs4jServerSocketChannel;
import dev.verbs4j.netty.Verbs4jSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.Locale;

/**
 * The transports the Netty benchmarks compare: Netty's NIO on kernel TCP, and verbs4j's over
 * RDMA (or its TCP fallback), with the completion mode of its event loops.
 *
 * @param name      "nio", "verbs4j-rdma" or "verbs4j-tcp"
 * @param transport verbs4j's transport, null for NIO
 * @param mode      verbs4j's completion mode, null for NIO
 */
record NettyTransport(String name, TransportPreference transport, CompletionMode mode) {

    /** "nio", or "verbs4j-rdma"/"verbs4j-tcp" in {@code mode}. */
    static NettyTransport parse(String name, CompletionMode mode) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "nio" -> new NettyTransport("nio", null, null);
            case "verbs4j-rdma" -> new NettyTransport(name, TransportPreference.RDMA, mode);
            case "verbs4j-tcp" -> new NettyTransport(name, TransportPreference.TCP, mode);
            default -> throw new IllegalArgumentException("transport must be nio, verbs4j-rdma or verbs4j-tcp: " + name);
        };
    }

    boolean isVerbs4j() {
        return transport != null;
    }

    /** How a row names it: "nio" or "verbs4j-rdma/adaptive". */
    String label() {
        return isVerbs4j() ? name + "/" + mode.label() : name;
    }

    EventLoopGroup newGroup(int threads) {
        IoHandlerFactory io = isVerbs4j() ? Verbs4jIoHandler.newFactory(mode) : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, io);
    }

    Class<? extends ServerChannel> serverChannel() {
        return isVerbs4j() ? Verbs4jServerSocketChannel.class : NioServerSocketChannel.class;
    }

    Class<? extends SocketChannel> channel() {
        return isVerbs4j() ? Verbs4jSocketChannel.class : NioSocketChannel.class;
    }

    /** The server bootstrap on {@code group}, child options included. */
    ServerBootstrap server(EventLoopGroup group) {
        ServerBootstrap b = new ServerBootstrap().group(group).channel(serverChannel())
                .childOption(ChannelOption.TCP_NODELAY, true);
        if (isVerbs4j()) {
            b.childOption(Verbs4jChannelOption.TRANSPORT, transport);
        }
        return b;
    }

    /** The client bootstrap on {@code group}. */
    Bootstrap client(EventLoopGroup group) {
        Bootstrap b = new Bootstrap().group(group).channel(channel()).option(ChannelOption.TCP_NODELAY, true);
        if (isVerbs4j()) {
            b.option(Verbs4jChannelOption.TRANSPORT, transport);
        }
        return b;
    }
}
