package dev.verbs4j.netty.testsuite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A local address whose connects time out: a listener on 127.0.0.1 that never accepts, its
 * accept queue filled, so the kernel drops further SYNs. Netty's suite sends the connects that
 * must time out to {@code io.netty.testsuite.badHost:badPort} (a public documentation address
 * by default); {@link #open} points those here before the suite reads them
 * ({@link BlackholeSession}), so no packet leaves the machine.
 */
public final class Blackhole {
    private static final String HOST = "127.0.0.1";
    private static final List<AutoCloseable> HELD = new ArrayList<>();

    private Blackhole() {}

    /** Opens the blackhole on a free port and names it to the suite, once per JVM. */
    public static synchronized void open() {
        if (!HELD.isEmpty()) {
            return;
        }
        try {
            ServerSocket listener = new ServerSocket(0, 1, InetAddress.getByName(HOST));
            HELD.add(listener);
            int port = listener.getLocalPort();
            for (int i = 0; i < 8 && !timesOut(port); i++) {
                Socket filler = new Socket();
                filler.connect(new InetSocketAddress(HOST, port), 1000);
                HELD.add(filler);
            }
            if (!timesOut(port)) {
                throw new IllegalStateException("connects to " + HOST + ":" + port + " still succeed");
            }
            System.setProperty("io.netty.testsuite.badHost", HOST);
            System.setProperty("io.netty.testsuite.badPort", Integer.toString(port));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a blackhole on " + HOST, e);
        }
    }

    private static boolean timesOut(int port) throws IOException {
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(HOST, port), 200);
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        }
    }
}
