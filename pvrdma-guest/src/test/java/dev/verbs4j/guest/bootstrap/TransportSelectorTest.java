package dev.verbs4j.guest.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.TransportKind;
import dev.verbs4j.guest.TransportPreference;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import org.junit.jupiter.api.Test;

/** The transport rule, on stated capabilities (no device needed). */
class TransportSelectorTest {
    private static final Capabilities CAN = Capabilities.usable("rxe0", 1, 1, "RoCE v2", -1);
    private static final Capabilities NO_DEVICE = Capabilities.lacking(CapabilitiesGap.NO_DEVICE, "");
    private static final Capabilities NO_GID = Capabilities.lacking(CapabilitiesGap.NO_ROCE_V2_GID, "rxe0 port 1");
    private static final TransportPreference AUTO = TransportPreference.AUTO;

    @Test
    void rdmaWhenBothSidesCan() {
        TransportChoice c = TransportSelector.choose(AUTO, CAN, AUTO, CAN);
        assertEquals(TransportKind.RDMA, c.kind());
        assertEquals("rdma (rxe0, GID index 1, RoCE v2)", c.describe());
    }

    @Test
    void tcpWithTheReasonPhrasedForEachSide() {
        assertEquals("tcp (reason: peer has no RDMA device)", TransportSelector.choose(AUTO, CAN, AUTO, NO_DEVICE).describe());
        assertEquals("tcp (reason: no RDMA device)", TransportSelector.choose(AUTO, NO_DEVICE, AUTO, CAN).describe());
        assertEquals("tcp (reason: no RoCE v2 GID (rxe0 port 1))",
                TransportSelector.choose(AUTO, NO_GID, AUTO, CAN).describe());
        assertEquals("tcp (reason: peer has no RoCE v2 GID (rxe0 port 1))",
                TransportSelector.choose(AUTO, CAN, AUTO, NO_GID).describe());
    }

    @Test
    void configurationForcesEitherTransport() {
        assertEquals("tcp (reason: forced by configuration)",
                TransportSelector.choose(TransportPreference.TCP, CAN, AUTO, CAN).describe());
        assertEquals("tcp (reason: forced by the peer's configuration)",
                TransportSelector.choose(AUTO, CAN, TransportPreference.TCP, CAN).describe());
        assertEquals("forced by configuration",
                TransportSelector.choose(TransportPreference.RDMA, CAN, AUTO, CAN).reason());
        ChannelException e = assertThrows(ChannelException.class,
                () -> TransportSelector.choose(TransportPreference.RDMA, CAN, AUTO, NO_DEVICE));
        assertEquals(ChannelError.CONNECT_FAILED, e.error());
        assertThrows(ChannelException.class,
                () -> TransportSelector.choose(TransportPreference.RDMA, CAN, TransportPreference.TCP, CAN));
    }

    @Test
    void capabilitiesSurviveTheWire() throws Exception {
        for (Capabilities c : new Capabilities[] {CAN, NO_DEVICE, NO_GID}) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            c.writeTo(new DataOutputStream(bytes));
            assertEquals(c, Capabilities.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
        }
    }

    @Test
    void commandLineWords() {
        assertEquals(CompletionMode.BUSY_POLL, CompletionMode.parse("busy"));
        assertEquals(CompletionMode.ADAPTIVE, CompletionMode.parse("adaptive"));
        assertEquals(TransportPreference.RDMA, TransportPreference.parse("rdma"));
        assertThrows(IllegalArgumentException.class, () -> TransportPreference.parse("udp"));
    }
}
