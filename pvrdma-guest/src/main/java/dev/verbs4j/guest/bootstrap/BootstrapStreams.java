package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.unix.FileDescriptor;
import dev.verbs4j.unix.NativeSocket;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * Blocking, timed streams over the (non-blocking) bootstrap socket: each read or write waits in
 * poll(2) for at most the timeout. Reads are unbuffered so not one byte past the exchange is
 * taken from the socket the TCP transport goes on using.
 */
final class BootstrapStreams {
    /** The longest reason of the peer's this side repeats. */
    static final int REASON_MAX = 500;

    final DataInputStream in;
    private final NativeSocket socket;
    private final long timeoutMillis;
    /** When set ({@link #finishBy}), no wait goes past it: System.nanoTime() based; MAX_VALUE for none. */
    private long deadline = Long.MAX_VALUE;
    private String deadlineStep;
    private final MemorySegment buffer = Arena.ofAuto().allocate(4096);

    BootstrapStreams(NativeSocket socket, Duration timeout) {
        this.socket = socket;
        this.timeoutMillis = Math.max(1, timeout.toMillis());
        socket.setNoDelayAndKeepAlive();
        this.in = new DataInputStream(new SocketInput());
    }

    /** Writes what {@code body} produces as one write. */
    void send(Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream data = new DataOutputStream(bytes);
        body.writeTo(data);
        data.flush();
        byte[] b = bytes.toByteArray();
        for (int at = 0; at < b.length; ) {
            int chunk = (int) Math.min(buffer.byteSize(), b.length - at);
            MemorySegment.copy(b, at, buffer, ValueLayout.JAVA_BYTE, 0, chunk);
            long done = 0;
            while (done < chunk) {
                waitFor(FileDescriptor.POLLOUT);
                done += socket.write(buffer.address() + done, chunk - done);
            }
            at += chunk;
        }
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
        return ok ? null : PeerText.printable(reason, REASON_MAX);
    }

    /**
     * Bounds every wait from now on by {@code limit} in all, not each by the timeout alone: a peer
     * that sends a byte now and then must still finish {@code step} in time. Null ends the bound.
     */
    void finishBy(Duration limit, String step) {
        this.deadline = limit == null ? Long.MAX_VALUE : System.nanoTime() + limit.toNanos();
        this.deadlineStep = step;
    }

    private void waitFor(short events) throws SocketTimeoutException {
        long wait = timeoutMillis;
        if (deadline != Long.MAX_VALUE) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new SocketTimeoutException(deadlineStep + " was not complete in time");
            }
            wait = Math.min(wait, left);
        }
        if (socket.await(events, -1, wait) == 0) {
            throw new SocketTimeoutException(wait < timeoutMillis ? deadlineStep + " was not complete in time"
                    : "no progress on the bootstrap socket within " + timeoutMillis + " ms");
        }
    }

    /** Exactly the bytes asked for, never more. */
    private final class SocketInput extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (true) {
                long n = socket.read(buffer.address(), Math.min(len, buffer.byteSize()));
                if (n < 0) {
                    return -1;
                }
                if (n > 0) {
                    MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, b, off, (int) n);
                    return (int) n;
                }
                waitFor(FileDescriptor.POLLIN);
            }
        }
    }
}
