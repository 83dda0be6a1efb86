package dev.verbs4j.netty.grpc;

import dev.verbs4j.guest.TransportKind;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.netty.Verbs4jChannelOption;
import dev.verbs4j.netty.Verbs4jIoHandler;
import dev.verbs4j.netty.Verbs4jServerSocketChannel;
import dev.verbs4j.netty.Verbs4jSocketChannel;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gRPC-java (unshaded grpc-netty) over this transport: a server and a client on verbs4j's event
 * loop group and channel types, with the transport forced, so a fallback fails the connect; each
 * client channel made is kept and asked which transport carried it.
 */
abstract class GrpcConformanceSuite {
    private static final int TEN_MB = 10 * 1024 * 1024;
    private static final long WAIT_SECONDS = 60;

    private final List<Verbs4jSocketChannel> clientChannels = new CopyOnWriteArrayList<>();
    private EchoService service;
    private EventLoopGroup group;
    private Server server;
    private ManagedChannel channel;

    abstract TransportPreference transport();

    /** The RDMA device, or null for the first usable one. */
    String device() {
        return null;
    }

    @BeforeEach
    void start() throws Exception {
        service = new EchoService();
        group = new MultiThreadIoEventLoopGroup(2, Verbs4jIoHandler.newFactory());
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .channelType(Verbs4jServerSocketChannel.class).bossEventLoopGroup(group).workerEventLoopGroup(group)
                .withChildOption(Verbs4jChannelOption.TRANSPORT, transport())
                .withChildOption(Verbs4jChannelOption.DEVICE, device())
                .maxInboundMessageSize(2 * TEN_MB)
                .addService(service.definition()).build().start();
        int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", port).eventLoopGroup(group)
                .channelFactory(() -> {
                    Verbs4jSocketChannel made = new Verbs4jSocketChannel();
                    clientChannels.add(made);
                    return made;
                })
                .withOption(Verbs4jChannelOption.TRANSPORT, transport())
                .withOption(Verbs4jChannelOption.DEVICE, device())
                .maxInboundMessageSize(2 * TEN_MB).usePlaintext().build();
    }

    @AfterEach
    void stop() throws Exception {
        channel.shutdownNow().awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void unaryCallsEchoAndTheChosenTransportCarriesThem() {
        for (int i = 0; i < 20; i++) {
            byte[] request = ("request " + i).getBytes();
            assertArrayEquals(request, ClientCalls.blockingUnaryCall(channel, EchoService.UNARY, CallOptions.DEFAULT,
                    request));
        }
        assertFalse(clientChannels.isEmpty());
        for (Verbs4jSocketChannel made : clientChannels) {
            if (made.isActive()) {
                assertEquals(expectedKind(), made.transport().kind(), made.transport().describe());
            }
        }
    }

    @Test
    void aServerStreamArrivesWholeAndInOrder() {
        Iterator<byte[]> replies = ClientCalls.blockingServerStreamingCall(channel, EchoService.COUNT,
                CallOptions.DEFAULT, new byte[] {100});
        int n = 0;
        while (replies.hasNext()) {
            assertArrayEquals(new byte[] {(byte) n}, replies.next());
            n++;
        }
        assertEquals(100, n);
    }

    @Test
    void aBidirectionalStreamEchoesTenMegabyteMessages() throws Exception {
        LinkedBlockingQueue<Object> replies = new LinkedBlockingQueue<>();
        StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(
                channel.newCall(EchoService.ECHO_STREAM, CallOptions.DEFAULT), collectInto(replies));
        Random random = new Random(42);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] message = new byte[TEN_MB];
            random.nextBytes(message);
            sent.add(message);
            requests.onNext(message);
        }
        requests.onCompleted();
        for (byte[] message : sent) {
            Object reply = replies.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertArrayEquals(message, (byte[]) reply);
        }
        assertEquals(Status.Code.OK, ((Status) replies.poll(WAIT_SECONDS, TimeUnit.SECONDS)).getCode());
    }

    @Test
    void aDeadlineThatExpiresEndsTheCallAndTheServerHearsIt() throws Exception {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
                channel, EchoService.HANG, CallOptions.DEFAULT.withDeadlineAfter(2, TimeUnit.SECONDS), new byte[1]));
        assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
        assertTrue(service.hangCancelled.await(WAIT_SECONDS, TimeUnit.SECONDS), "the server saw the call end");
    }

    @Test
    void aCancelledCallEndsOnBothSides() throws Exception {
        ClientCall<byte[], byte[]> call = channel.newCall(EchoService.HANG, CallOptions.DEFAULT);
        LinkedBlockingQueue<Object> replies = new LinkedBlockingQueue<>();
        ClientCalls.asyncUnaryCall(call, new byte[1], collectInto(replies));
        assertTrue(service.hangReceived.await(WAIT_SECONDS, TimeUnit.SECONDS));
        call.cancel("cancelled by the test", null);
        assertEquals(Status.Code.CANCELLED, ((Status) replies.poll(WAIT_SECONDS, TimeUnit.SECONDS)).getCode());
        assertTrue(service.hangCancelled.await(WAIT_SECONDS, TimeUnit.SECONDS), "the server saw the cancel");
    }

    @Test
    void aServerThatGoesAwayMidStreamFailsTheCall() throws Exception {
        LinkedBlockingQueue<Object> replies = new LinkedBlockingQueue<>();
        StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(
                channel.newCall(EchoService.ECHO_STREAM, CallOptions.DEFAULT), collectInto(replies));
        requests.onNext(new byte[] {1});
        assertArrayEquals(new byte[] {1}, (byte[]) replies.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        CompletableFuture.runAsync(server::shutdownNow);
        Object end = replies.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(end, "the call ended in time");
        Status.Code code = ((Status) end).getCode();
        assertTrue(code == Status.Code.UNAVAILABLE || code == Status.Code.CANCELLED, "ended with " + end);
    }

    private TransportKind expectedKind() {
        return transport() == TransportPreference.TCP ? TransportKind.TCP : TransportKind.RDMA;
    }

    /** Replies, then the call's status (OK, or the error's) as the last element. */
    private static StreamObserver<byte[]> collectInto(LinkedBlockingQueue<Object> into) {
        return new StreamObserver<>() {
            @Override
            public void onNext(byte[] value) {
                into.add(value);
            }

            @Override
            public void onError(Throwable t) {
                into.add(Status.fromThrowable(t));
            }

            @Override
            public void onCompleted() {
                into.add(Status.OK);
            }
        };
    }
}
