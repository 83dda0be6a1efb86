package dev.verbs4j.guest;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * Blocking, timed streams over the bootstrap socket. Reads are unbuffered so not one byte past
 * the exchange is taken from the socket the TCP transport goes on using.
 */
final class BootstrapStreams {
    final DataInputStream in;
    private final OutputStream out;

    BootstrapStreams(SocketChannel socket, Duration timeout) throws IOException {
        socket.configureBlocking(true);
        socket.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())));
        socket.socket().setTcpNoDelay(true);
        socket.socket().setKeepAlive(true);
        this.in = new DataInputStream(socket.socket().getInputStream());
        this.out = socket.socket().getOutputStream();
    }

    /** Writes what {@code body} produces as one write. */
    void send(Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream data = new DataOutputStream(bytes);
        body.writeTo(data);
        data.flush();
        out.write(bytes.toByteArray());
        out.flush();
    }

    interface Body {
        void writeTo(DataOutputStream out) throws IOException;
    }

    /** A step's outcome: ok, or the reason it failed. */
    void sendOutcome(String failure) throws IOException {
        send(out -> {
            out.writeBoolean(failure == null);
            out.writeUTF(failure == null ? "" : failure);
        });
    }

    /** The peer's outcome: null for ok, else its reason. */
    String readOutcome() throws IOException {
        boolean ok = in.readBoolean();
        String reason = in.readUTF();
        return ok ? null : reason;
    }
}
