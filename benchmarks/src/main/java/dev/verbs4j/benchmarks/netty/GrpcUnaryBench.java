package dev.verbs4j.benchmarks.netty;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.netty.Verbs4jChannelOption;
import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.netty.channel.EventLoopGroup;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * gRPC unary round trips (grpc-netty, unshaded) over one transport, server and client each a JVM
 * of its own with one event-loop thread: a blocking call of 64 bytes each way from the client's
 * main thread, as an application makes it.
 * <pre>
 * java -cp ... dev.verbs4j.benchmarks.netty.GrpcUnaryBench server TRANSPORT MODE ADDRESS
 * java -cp ... dev.verbs4j.benchmarks.netty.GrpcUnaryBench client TRANSPORT MODE ADDRESS PORT ITERS WARMUP
 * </pre>
 * The server prints {@code listening ADDRESS PORT} and exits when the client's connection has
 * closed; the client prints {@code grpc TRANSPORT 64 p50_us p99_us} of ITERS calls after WARMUP.
 */
public final class GrpcUnaryBench {
    private static final MethodDescriptor<byte[], byte[]> ECHO = MethodDescriptor.<byte[], byte[]>newBuilder(
                    Bytes.INSTANCE, Bytes.INSTANCE).setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("verbs4j.bench.Echo", "Echo")).build();
    private static final int SIZE = 64;

    private GrpcUnaryBench() {}

    /**
     * Runs one side.
     *
     * @param args as the class comment shows
     * @throws Exception when the server or a call fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("server")) {
            serve(NettyTransport.parse(args[1], CompletionMode.parse(args[2])), args[3]);
        } else if (args.length == 7 && args[0].equals("client")) {
            client(NettyTransport.parse(args[1], CompletionMode.parse(args[2])), args[3], Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), Integer.parseInt(args[6]));
        } else {
            throw new IllegalArgumentException(
                    "usage: server TRANSPORT MODE ADDRESS | client TRANSPORT MODE ADDRESS PORT ITERS WARMUP");
        }
    }

    private static void serve(NettyTransport transport, String address) throws Exception {
        EventLoopGroup group = transport.newGroup(1);
        CountDownLatch clientGone = new CountDownLatch(1);
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(address, 0))
                .channelType(transport.serverChannel()).bossEventLoopGroup(group).workerEventLoopGroup(group)
                .directExecutor().addTransportFilter(new ServerTransportFilter() {
                    @Override
                    public void transportTerminated(Attributes transportAttrs) {
                        clientGone.countDown();
                    }
                })
                .addService(ServerServiceDefinition.builder("verbs4j.bench.Echo")
                        .addMethod(ECHO, ServerCalls.asyncUnaryCall((request, response) -> {
                            response.onNext(request);
                            response.onCompleted();
                        })).build());
        if (transport.isVerbs4j()) {
            builder.withChildOption(Verbs4jChannelOption.TRANSPORT, transport.transport());
        }
        Server server = builder.build().start();
        try {
            BenchOutput.listening(address, ((InetSocketAddress) server.getListenSockets().getFirst()).getPort());
            if (!clientGone.await(1, TimeUnit.HOURS)) {
                throw new IllegalStateException("the client's connection did not close in an hour");
            }
        } finally {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static void client(NettyTransport transport, String address, int port, int iters, int warmup)
            throws Exception {
        EventLoopGroup group = transport.newGroup(1);
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(address, port)
                .channelType(transport.channel()).eventLoopGroup(group).directExecutor().usePlaintext();
        if (transport.isVerbs4j()) {
            builder.withOption(Verbs4jChannelOption.TRANSPORT, transport.transport());
        }
        ManagedChannel channel = builder.build();
        try {
            byte[] request = new byte[SIZE];
            for (int i = 0; i < warmup; i++) {
                ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, request);
            }
            long[] nanos = new long[iters];
            for (int i = 0; i < iters; i++) {
                long start = System.nanoTime();
                ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, request);
                nanos[i] = System.nanoTime() - start;
            }
            System.out.println("grpc " + transport.label() + " " + SIZE + " " + BenchOutput.p50p99(nanos));
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** Messages as they are: the bytes. */
    private enum Bytes implements MethodDescriptor.Marshaller<byte[]> {
        INSTANCE;

        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
