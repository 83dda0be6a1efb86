package dev.verbs4j.examples;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The pingpong programs' out-of-band exchange over TCP. The client sends its address first; the
 * server reads it, connects its QP (so it is ready to receive before the client can send), answers
 * with its own address, and waits for the client's 5-byte "done\0". Every read is bounded.
 */
final class PingpongExchange {
    static final byte[] DONE = "done\0".getBytes(StandardCharsets.US_ASCII);

    /** What the server does with the client's address before answering: bring its QP to RTS. */
    interface Connector {
        void connect(PingpongAddress remote) throws Exception;
    }

    private PingpongExchange() {}

    /** Client side: connect to {@code host:port}, send ours, read theirs, send "done". */
    static PingpongAddress client(String host, int port, PingpongAddress mine, Duration timeout) throws IOException {
        InetAddress[] candidates;
        try {
            candidates = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new IOException("Name or service not known for " + host + ":" + port, e);
        }
        IOException last = null;
        for (InetAddress address : candidates) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address, port), millis(timeout));
                socket.setSoTimeout(millis(timeout));
                socket.setTcpNoDelay(true);
                OutputStream out = socket.getOutputStream();
                out.write(mine.encode());
                out.flush();
                byte[] reply = readExactly(socket.getInputStream(), PingpongAddress.WIRE_SIZE, "the server's address");
                out.write(DONE);
                out.flush();
                return decode(reply);
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IOException("Couldn't connect to " + host + ":" + port + ": " + describe(last), last);
    }

    /** Server side: accept one client on {@code port} (any address), exchange, connect in between. */
    static PingpongAddress server(int port, PingpongAddress mine, Connector connector, Duration timeout)
            throws Exception {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            try {
                listener.bind(new InetSocketAddress(port), 1);
            } catch (IOException e) {
                throw new IOException("Couldn't listen to port " + port + ": " + e.getMessage(), e);
            }
            // like the C server, wait for a client as long as it takes
            try (Socket socket = listener.accept()) {
                socket.setSoTimeout(millis(timeout));
                socket.setTcpNoDelay(true);
                byte[] theirs = readExactly(socket.getInputStream(), PingpongAddress.WIRE_SIZE, "the client's address");
                PingpongAddress remote = decode(theirs);
                connector.connect(remote);
                OutputStream out = socket.getOutputStream();
                out.write(mine.encode());
                out.flush();
                byte[] done = readExactly(socket.getInputStream(), DONE.length, "the client's \"done\"");
                if (done[0] != 'd' || done[1] != 'o' || done[2] != 'n' || done[3] != 'e') {
                    throw new IOException("Couldn't send/recv local address: expected \"done\" from the client");
                }
                return remote;
            }
        }
    }

    private static PingpongAddress decode(byte[] message) throws IOException {
        try {
            return PingpongAddress.decode(message);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    static byte[] readExactly(InputStream in, int n, String what) throws IOException {
        byte[] buf = new byte[n];
        int got = 0;
        try {
            while (got < n) {
                int r = in.read(buf, got, n - got);
                if (r < 0) {
                    throw new EOFException(got + "/" + n + ": Couldn't read " + what
                            + " (the peer closed the connection; is it a pingpong of the same kind?)");
                }
                got += r;
            }
        } catch (SocketTimeoutException e) {
            throw new IOException(got + "/" + n + ": Couldn't read " + what + " within the timeout", e);
        }
        return buf;
    }

    private static String describe(IOException e) {
        return e == null ? "no address" : e.getMessage();
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }
}
