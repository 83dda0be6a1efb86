package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The TCP exchange over loopback, against a byte-exact stand-in of the C side's socket calls. */
class PingpongExchangeTest {
    private static final byte[] GID = HexFormat.of().parseHex("00000000000000000000ffff7f000001");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void javaClientAndJavaServer() throws Exception {
        int port = freePort();
        PingpongAddress serverSide = new PingpongAddress(0, 0x22, 0x123456, GID);
        PingpongAddress clientSide = new PingpongAddress(0, 0x11, 0x654321, GID);
        AtomicReference<PingpongAddress> connectedTo = new AtomicReference<>();
        CompletableFuture<PingpongAddress> server = CompletableFuture.supplyAsync(() -> {
            try {
                return PingpongExchange.server(port, serverSide, connectedTo::set, TIMEOUT);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        PingpongAddress seenByClient = null;
        for (int attempt = 0; attempt < 50 && seenByClient == null; attempt++) {
            try {
                seenByClient = PingpongExchange.client("127.0.0.1", port, clientSide, TIMEOUT);
            } catch (IOException notYetListening) {
                Thread.sleep(100);
            }
        }
        assertEquals(serverSide, seenByClient);
        assertEquals(clientSide, server.get(5, TimeUnit.SECONDS));
        assertEquals(clientSide, connectedTo.get(), "the server connects its QP before answering");
    }

    @Test
    void clientSendsExactlyWhatTheCServerReads() throws Exception {
        try (ServerSocket listener = new ServerSocket(0)) {
            PingpongAddress mine = new PingpongAddress(0, 0x11, 0x654321, GID);
            PingpongAddress theirs = new PingpongAddress(0, 0x22, 0x123456, GID);
            CompletableFuture<PingpongAddress> client = CompletableFuture.supplyAsync(() -> {
                try {
                    return PingpongExchange.client("127.0.0.1", listener.getLocalPort(), mine, TIMEOUT);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (Socket s = listener.accept()) {
                InputStream in = s.getInputStream();
                assertArrayEquals(mine.encode(), PingpongExchange.readExactly(in, 52, "msg"));
                s.getOutputStream().write(theirs.encode());
                assertArrayEquals("done\0".getBytes(), PingpongExchange.readExactly(in, 5, "done"));
            }
            assertEquals(theirs, client.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void nothingListeningFailsFastAndClearly() throws Exception {
        int port = freePort();
        PingpongAddress mine = new PingpongAddress(0, 1, 2, GID);
        IOException e = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(IOException.class,
                () -> PingpongExchange.client("127.0.0.1", port, mine, TIMEOUT)));
        assertTrue(e.getMessage().startsWith("Couldn't connect to 127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void aSilentServerEndsInATimeoutNotAHang() throws Exception {
        try (ServerSocket listener = new ServerSocket(0)) {
            PingpongAddress mine = new PingpongAddress(0, 1, 2, GID);
            IOException e = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(IOException.class,
                    () -> PingpongExchange.client("127.0.0.1", listener.getLocalPort(), mine, Duration.ofSeconds(1))));
            assertTrue(e.getMessage().contains("within the timeout"), e.getMessage());
        }
    }
}
