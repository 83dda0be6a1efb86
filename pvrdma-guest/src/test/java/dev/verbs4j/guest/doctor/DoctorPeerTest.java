package dev.verbs4j.guest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.guest.probe.SameHostFacts;
import dev.verbs4j.guest.probe.SysfsRoot;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The doctor asked about one peer: a server in this JVM answers (shm), nothing answers (what it would need). */
class DoctorPeerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final DoctorVerdict NO_DEVICE = DoctorVerdict.tcp("no RDMA device");

    @Test
    void aPeerThatAnswersSaysWhichPathAndWhy() throws Exception {
        try (ChannelServer server = ChannelServer.listen("127.0.0.1", 0, ChannelConfig.defaults())) {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (Channel accepted = server.accept(WAIT)) {
                    // the doctor closes its end at once
                }
            });
            PeerPath path = PeerPath.ask("127.0.0.1", server.port(), WAIT, NO_DEVICE);
            served.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(path.answered(), path.text());
            assertEquals("shm", path.transport());
            assertEquals("peer 127.0.0.1:" + server.port() + ": shm (reason: both processes on one kernel, in one "
                    + "network namespace, under one user)", path.text());
            assertTrue(path.local());
            DoctorReport report = Doctor.run(SysfsRoot.system()).withPeer(path);
            assertTrue(report.toText().contains(path.text() + "\n"), report.toText());
            String json = report.toJson();
            JsonCheck.validate(json);
            assertTrue(json.contains("\"peer\":{\"address\":\"127.0.0.1:" + server.port()
                    + "\",\"answered\":true,\"transport\":\"shm\""), json);
        }
    }

    @Test
    void aPeerThatDoesNotAnswerGetsWhatItWouldNeed() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        PeerPath path = PeerPath.ask("127.0.0.1", port, Duration.ofSeconds(5), NO_DEVICE);
        assertFalse(path.answered());
        assertEquals("", path.transport());
        SameHostFacts here = SameHostFacts.here();
        assertTrue(path.needs().contains("boot id " + here.bootId()) && path.needs().contains(here.netns())
                && path.needs().contains("as uid " + here.uid()), path.needs());
        assertTrue(path.needs().contains("the address is this machine's"), path.needs());
        assertTrue(path.needs().endsWith("; else tcp (here: no RDMA device)"), path.needs());
        assertTrue(path.text().startsWith("peer 127.0.0.1:" + port + ": no verbs4j channel set up with"), path.text());
    }

    @Test
    void anAddressOfAnotherMachineIsNotLocal() {
        assertFalse(PeerPath.isLocal("192.0.2.1")); // TEST-NET-1: never an address of this machine
        assertTrue(PeerPath.needs(SameHostFacts.here(), false, DoctorVerdict.rdma("rxe0", 1, 1, "RoCE v2", "::1", "ok"))
                .contains("no shm; else rdma, if the peer can do RDMA too (here: rxe0, GID index 1)"));
    }
}
