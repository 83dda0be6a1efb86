package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.verbs.QueuePairEndpoint;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.unix.NativeSocket;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A peer that speaks the real bootstrap exchange (RDMA forced) up to a point, prints that point's
 * name and then waits to be killed, so a test can kill it exactly there. Args: HOST PORT DEVICE
 * GID_INDEX MAX_MESSAGE hello|endpoint. "hello": after both hellos; "endpoint": after both sides
 * sent their queue pair's endpoint (the other side then connects its QP and waits for the outcome).
 */
public final class HandshakePeerProcess {
    private HandshakePeerProcess() {}

    public static void main(String[] args) throws Exception {
        String stopAt = args[5];
        int maxMessage = Integer.parseInt(args[4]);
        try (NativeSocket socket = NativeSocket.connect(args[0], Integer.parseInt(args[1]), Duration.ofSeconds(60))) {
            BootstrapStreams streams = new BootstrapStreams(socket, Duration.ofSeconds(60));
            Capabilities local = CapabilitiesProbe.probe(args[2], Integer.parseInt(args[3]), 0);
            streams.send(new BootstrapHello(TransportPreference.RDMA, maxMessage, 32, local, dev.verbs4j.guest.probe.SameHostFacts.here())::writeTo);
            BootstrapHello.readFrom(streams.in);
            if (!stopAt.equals("hello")) {
                boolean peerReady = streams.in.readBoolean();
                if (!peerReady) {
                    throw new IllegalStateException("the other side could not set up RDMA: " + streams.in.readUTF());
                }
                byte[] endpoint = new byte[QueuePairEndpoint.BYTES];
                streams.in.readFully(endpoint);
                QueuePairEndpoint theirs = QueuePairEndpoint.fromBytes(endpoint);
                // an endpoint the other side can connect its QP to: no QP here answers it
                QueuePairEndpoint mine = new QueuePairEndpoint(theirs.qpNumber() + 1, 1, theirs.gid(), theirs.lid(),
                        theirs.mtu(), theirs.qkey(), null);
                streams.send(out -> {
                    out.writeBoolean(true);
                    out.write(mine.toBytes());
                });
            }
            System.out.println("at " + stopAt);
            System.out.flush();
            System.in.read(); // until killed (the test never writes)
        }
    }

    /** Starts the peer in a child JVM with this test class path; its stdout (and stderr) is the process's input stream. */
    public static Process start(String host, int port, String device, int gidIndex, int maxMessage, String stopAt)
            throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path") + File.pathSeparator
                        + System.getProperty("surefire.test.class.path", ""),
                HandshakePeerProcess.class.getName(), host, Integer.toString(port), device, Integer.toString(gidIndex),
                Integer.toString(maxMessage), stopAt);
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }
}
