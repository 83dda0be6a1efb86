package dev.verbs4j.benchmarks.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class OutOfBandTest {
    private static final byte[] GID = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 77, 0, 1};

    @Test
    void endpointsAndParametersCrossATcpConnection() throws Exception {
        int port = 18_000 + (int) (ProcessHandle.current().pid() % 1000);
        Endpoint serverSide = new Endpoint(0, 0x11, 0x6d99e5, 0x499, 0x55d4e25bd000L, GID, 3);
        Endpoint clientSide = new Endpoint(0, 0x12, 0xa40cba, 0x580, 0x5577d7042000L, GID, 3);
        RunParameters run = new RunParameters(PerfTest.WRITE_BW, List.of(2, 64, 4096), 1000, 5);
        CompletableFuture<Object[]> server = CompletableFuture.supplyAsync(() -> {
            try (OutOfBand oob = OutOfBand.accept(port)) {
                RunParameters p = oob.receiveParameters();
                Endpoint peer = oob.exchange(serverSide);
                oob.barrier();
                oob.sendLine("row");
                return new Object[] {p, peer};
            }
        });
        try (OutOfBand oob = OutOfBand.connect("127.0.0.1", port)) {
            oob.send(run);
            assertEquals(serverSide, oob.exchange(clientSide));
            oob.barrier();
            assertEquals("row", oob.receiveLine());
        }
        Object[] seen = server.get();
        assertEquals(run, seen[0]);
        assertEquals(clientSide, seen[1]);
    }

    @Test
    void aForeignPeerIsRecognised() {
        byte[] perftestKey = "0000:0000:000011:6d99e5".getBytes();
        IOException e = assertThrows(IOException.class,
                () -> RunParameters.readFrom(new DataInputStream(new ByteArrayInputStream(perftestKey))));
        assertEquals(true, e.getMessage().contains("not a verbs4j perf client"));
    }

    @Test
    void endpointPrintsLikePerftest() throws IOException {
        Endpoint e = new Endpoint(0, 0x11, 0x6d99e5, 0x499, 0, GID, 3);
        assertEquals("00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:01", e.gidText());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        e.writeTo(new DataOutputStream(bytes));
        assertEquals(e, Endpoint.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
    }
}
