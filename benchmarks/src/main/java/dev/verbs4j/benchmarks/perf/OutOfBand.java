package dev.verbs4j.benchmarks.perf;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The TCP connection beside the RDMA one: run parameters, endpoints, and a barrier between
 * sizes so neither side posts to a QP the other has not prepared yet.
 */
final class OutOfBand implements AutoCloseable {
    private static final int CONNECT_ATTEMPTS = 600; // 60 s: a JVM under emulation starts slowly
    private static final long RETRY_MILLIS = 100;

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    private OutOfBand(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /** Waits for one client on {@code port}. */
    static OutOfBand accept(int port) {
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(port));
            return new OutOfBand(server.accept());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot accept a client on TCP port " + port, e);
        }
    }

    /** Connects to the server, retrying for a few seconds while it is still starting. */
    static OutOfBand connect(String host, int port) {
        IOException last = null;
        for (int attempt = 0; attempt < CONNECT_ATTEMPTS; attempt++) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(host, port), 5000);
                return new OutOfBand(s);
            } catch (IOException e) {
                last = e;
                closeQuietly(s);
                sleep();
            }
        }
        throw new UncheckedIOException("cannot connect to " + host + ":" + port + " (is the server running?)", last);
    }

    void send(RunParameters p) {
        io(() -> {
            p.writeTo(out);
            out.flush();
        });
    }

    RunParameters receiveParameters() {
        RunParameters[] p = new RunParameters[1];
        io(() -> p[0] = RunParameters.readFrom(in));
        return p[0];
    }

    /** Sends ours, then reads theirs: both sides write first, which the socket buffers absorb. */
    Endpoint exchange(Endpoint local) {
        Endpoint[] remote = new Endpoint[1];
        io(() -> {
            local.writeTo(out);
            out.flush();
            remote[0] = Endpoint.readFrom(in);
        });
        return remote[0];
    }

    /** One report line, so the side that measured nothing can print the other's, as perftest does. */
    void sendLine(String line) {
        io(() -> {
            out.writeUTF(line);
            out.flush();
        });
    }

    String receiveLine() {
        String[] line = new String[1];
        io(() -> line[0] = in.readUTF());
        return line[0];
    }

    /** Both sides say yes or no; returns true when either said yes. Also a barrier. */
    boolean eitherSays(boolean ours) {
        boolean[] theirs = new boolean[1];
        io(() -> {
            out.writeByte(ours ? 3 : 2);
            out.flush();
            byte b = in.readByte();
            if (b != 2 && b != 3) {
                throw new IOException("the peer is out of step");
            }
            theirs[0] = b == 3;
        });
        return ours || theirs[0];
    }

    /** Both sides reach this point before either goes on. */
    void barrier() {
        io(() -> {
            out.writeByte(1);
            out.flush();
            if (in.readByte() != 1) {
                throw new IOException("the peer is out of step");
            }
        });
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static void io(IoAction action) {
        try {
            action.run();
        } catch (IOException e) {
            throw new UncheckedIOException("out-of-band exchange with the peer failed", e);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do: we are retrying with a new socket
        }
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }
}
