package dev.verbs4j.unix.testing;

import dev.verbs4j.unix.FileDescriptor;
import dev.verbs4j.unix.NativeSocket;
import java.io.IOException;
import java.time.Duration;

/**
 * A connected loopback socket pair for tests: {@code sender} connected to {@code receiver},
 * accepted on {@code listener}. Closing closes all three.
 */
public record LoopbackSockets(NativeSocket listener, NativeSocket sender, NativeSocket receiver) implements AutoCloseable {

    public static LoopbackSockets open() throws IOException {
        NativeSocket listener = NativeSocket.listen("127.0.0.1", 0, 4);
        NativeSocket sender = NativeSocket.connect("127.0.0.1", listener.localPort(), Duration.ofSeconds(10));
        return new LoopbackSockets(listener, sender, acceptOne(listener));
    }

    private static NativeSocket acceptOne(NativeSocket listener) {
        NativeSocket s;
        while ((s = listener.accept()) == null) {
            listener.await(FileDescriptor.POLLIN, -1, 10_000);
        }
        return s;
    }

    @Override
    public void close() {
        receiver.close();
        sender.close();
        listener.close();
    }
}
