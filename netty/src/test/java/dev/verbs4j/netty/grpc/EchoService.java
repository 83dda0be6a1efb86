package dev.verbs4j.netty.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;

/**
 * A gRPC service without generated code: methods over raw bytes. Unary and bidirectional echo,
 * a server stream of {@code n} numbered messages, and a call that never answers (for deadlines
 * and cancellation), which counts down {@link #hangReceived} and {@link #hangCancelled}.
 */
final class EchoService {
    static final String NAME = "verbs4j.test.Echo";
    static final MethodDescriptor<byte[], byte[]> UNARY = method("Unary", MethodType.UNARY);
    static final MethodDescriptor<byte[], byte[]> COUNT = method("Count", MethodType.SERVER_STREAMING);
    static final MethodDescriptor<byte[], byte[]> ECHO_STREAM = method("EchoStream", MethodType.BIDI_STREAMING);
    static final MethodDescriptor<byte[], byte[]> HANG = method("Hang", MethodType.UNARY);

    final CountDownLatch hangReceived = new CountDownLatch(1);
    final CountDownLatch hangCancelled = new CountDownLatch(1);
    final CountDownLatch streamOpened = new CountDownLatch(1);

    ServerServiceDefinition definition() {
        return ServerServiceDefinition.builder(NAME)
                .addMethod(UNARY, ServerCalls.asyncUnaryCall((request, response) -> {
                    response.onNext(request);
                    response.onCompleted();
                }))
                .addMethod(COUNT, ServerCalls.asyncServerStreamingCall((request, response) -> {
                    for (int i = 0; i < request[0]; i++) {
                        response.onNext(new byte[] {(byte) i});
                    }
                    response.onCompleted();
                }))
                .addMethod(ECHO_STREAM, ServerCalls.asyncBidiStreamingCall(response -> {
                    streamOpened.countDown();
                    return new StreamObserver<byte[]>() {
                        @Override
                        public void onNext(byte[] message) {
                            response.onNext(message);
                        }

                        @Override
                        public void onError(Throwable t) {
                        }

                        @Override
                        public void onCompleted() {
                            response.onCompleted();
                        }
                    };
                }))
                .addMethod(HANG, ServerCalls.asyncUnaryCall((request, response) -> {
                    ((ServerCallStreamObserver<byte[]>) response).setOnCancelHandler(hangCancelled::countDown);
                    hangReceived.countDown(); // and never answers
                }))
                .build();
    }

    private static MethodDescriptor<byte[], byte[]> method(String name, MethodType type) {
        return MethodDescriptor.<byte[], byte[]>newBuilder(Bytes.INSTANCE, Bytes.INSTANCE).setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(NAME, name)).build();
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
