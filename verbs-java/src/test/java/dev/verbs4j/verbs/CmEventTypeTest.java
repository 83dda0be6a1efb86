package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.bindings.Rdma;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class CmEventTypeTest {

    @Test
    void everyEventValueMapsBackToItsType() {
        for (CmEventType type : CmEventType.values()) {
            assertEquals(type, CmEventType.of(type.value()));
        }
    }

    @Test
    void coversEveryRdmaCmEventOfTheHeaders() {
        assertEquals(16, CmEventType.values().length);
        assertEquals(Rdma.RDMA_CM_EVENT_TIMEWAIT_EXIT() + 1, CmEventType.values().length);
    }

    /** librdmacm's own names (rdma_event_str) are ours with the prefix: log lines read the same. */
    @Test
    void namesMatchRdmaEventStr() {
        for (CmEventType type : CmEventType.values()) {
            String native_ = Rdma.rdma_event_str(type.value()).reinterpret(64).getString(0);
            assertEquals("RDMA_CM_EVENT_" + type.name(), native_);
        }
    }

    @Test
    void unknownValueIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> CmEventType.of(99));
        assertThrows(IllegalArgumentException.class, () -> CmEventType.of(-1));
    }

    @Test
    void failuresAreFlagged() {
        EnumSet<CmEventType> failures = EnumSet.of(CmEventType.ADDR_ERROR, CmEventType.ROUTE_ERROR,
                CmEventType.CONNECT_ERROR, CmEventType.UNREACHABLE, CmEventType.REJECTED,
                CmEventType.DEVICE_REMOVAL, CmEventType.MULTICAST_ERROR);
        for (CmEventType type : CmEventType.values()) {
            assertEquals(failures.contains(type), type.isFailure(), type.name());
        }
    }

    @Test
    void portSpacesMapBothWays() {
        for (CmPortSpace ps : CmPortSpace.values()) {
            assertEquals(ps, CmPortSpace.of(ps.value()));
        }
        assertEquals(0x0106, CmPortSpace.TCP.value());
        assertTrue(CmPortSpace.UDP.isDatagram());
        assertFalse(CmPortSpace.TCP.isDatagram());
    }

    @Test
    void failureEventsDescribeTheirStatus() {
        CmEvent rejected = new CmEvent(CmEventType.REJECTED, 8, null, null, null, null);
        assertEquals("REJECTED (status 8: invalid service ID)", rejected.describe());
        CmEvent unreachable = new CmEvent(CmEventType.UNREACHABLE, -Errno.ETIMEDOUT, null, null, null, null);
        assertEquals("UNREACHABLE (ETIMEDOUT)", unreachable.describe());

        CmException e = CmException.unexpected("rdma_connect", CmEventType.ESTABLISHED, rejected);
        assertTrue(e.getMessage().startsWith("expected ESTABLISHED, got REJECTED (status 8"), e.getMessage());
        assertTrue(e.hint().contains("nothing listens"), e.hint());
        assertEquals(0, e.errno());
        CmException u = CmException.unexpected("rdma_connect", CmEventType.ESTABLISHED, unreachable);
        assertEquals(Errno.ETIMEDOUT, u.errno());
        assertTrue(u.hint().contains("server running"), u.hint());
    }
}
