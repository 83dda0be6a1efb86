package dev.verbs4j.benchmarks.netty;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.netty.Verbs4jChannelOption;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
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
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * gRPC unary round trips (grpc-netty, unshaded) over one transport, server and client in this
 * JVM: a blocking call of 64 bytes each way from the main thread, as an application makes it.
 * <pre>
 * java -cp ... dev.verbs4j.benchmarks.netty.GrpcUnaryBench TRANSPORT MODE ADDRESS ITERS
 * </pre>
 * Prints {@code grpc TRANSPORT 64 p50_us p99_us} after a warm-up.
 */
public final class GrpcUnaryBench {
    private static final MethodDescriptor<byte[], byte[]> ECHO = MethodDescriptor.<byte[], byte[]>newBuilder(
                    Bytes.INSTANCE, Bytes.INSTANCE).setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("verbs4j.bench.Echo", "Echo")).build();

    private GrpcUnaryBench() {}

    /**
     * Runs the row.
     *
     * @param args as the class comment shows
     * @throws Exception when the server or a call fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: TRANSPORT MODE ADDRESS ITERS");
        }
        NettyTransport transport = NettyTransport.parse(args[0], CompletionMode.parse(args[1]));
        String address = args[2];
        int iters = Integer.parseInt(args[3]);
        EventLoopGroup serverGroup = transport.newGroup(1), clientGroup = transport.newGroup(1);
        NettyServerBuilder serverBuilder = NettyServerBuilder.forAddress(new InetSocketAddress(address, 0))
                .channelType(transport.serverChannel()).bossEventLoopGroup(serverGroup)
                .workerEventLoopGroup(serverGroup).directExecutor()
                .addService(ServerServiceDefinition.builder("verbs4j.bench.Echo")
                        .addMethod(ECHO, ServerCalls.asyncUnaryCall((request, response) -> {
                            response.onNext(request);
                            response.onCompleted();
                        })).build());
        if (transport.isVerbs4j()) {
            serverBuilder.withChildOption(Verbs4jChannelOption.TRANSPORT, transport.transport());
        }
        Server server = serverBuilder.build().start();
        int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        NettyChannelBuilder clientBuilder = NettyChannelBuilder.forAddress(address, port)
                .channelType(transport.channel()).eventLoopGroup(clientGroup).directExecutor().usePlaintext();
        if (transport.isVerbs4j()) {
            clientBuilder.withOption(Verbs4jChannelOption.TRANSPORT, transport.transport());
        }
        ManagedChannel channel = clientBuilder.build();
        try {
            byte[] request = new byte[64];
            for (int i = 0; i < Math.max(100, iters / 2); i++) {
                ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, request);
            }
            long[] nanos = new long[iters];
            for (int i = 0; i < iters; i++) {
                long start = System.nanoTime();
                ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, request);
                nanos[i] = System.nanoTime() - start;
            }
            Arrays.sort(nanos);
            System.out.printf(Locale.ROOT, "grpc %s 64 %.1f %.1f%n", transport.label(), nanos[iters / 2] / 1e3,
                    nanos[(int) (iters * 0.99)] / 1e3);
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            clientGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            serverGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
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
