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
 * by default); the build points those here, so no packet leaves the machine.
 */
public final class Blackhole {
    private static final List<AutoCloseable> HELD = new ArrayList<>();

    private Blackhole() {}

    /** Opens the blackhole at the suite's bad host and port, once per JVM. */
    public static synchronized void open() {
        if (!HELD.isEmpty()) {
            return;
        }
        String host = System.getProperty("io.netty.testsuite.badHost");
        int port = Integer.getInteger("io.netty.testsuite.badPort", -1);
        if (!"127.0.0.1".equals(host) || port < 0) {
            throw new IllegalStateException("the build must point io.netty.testsuite.badHost/badPort at 127.0.0.1 "
                    + "(got " + host + ":" + port + "): the suite's timed-out connects must stay on this machine");
        }
        try {
            ServerSocket listener = new ServerSocket(port, 1, InetAddress.getByName(host));
            HELD.add(listener);
            for (int i = 0; i < 8 && !timesOut(host, port); i++) {
                Socket filler = new Socket();
                filler.connect(new InetSocketAddress(host, port), 1000);
                HELD.add(filler);
            }
            if (!timesOut(host, port)) {
                throw new IllegalStateException("connects to " + host + ":" + port + " still succeed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the blackhole at " + host + ":" + port, e);
        }
    }

    private static boolean timesOut(String host, int port) throws IOException {
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(host, port), 200);
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        }
    }
}
