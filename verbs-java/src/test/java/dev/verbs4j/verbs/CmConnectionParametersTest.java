package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.bindings.rdma_conn_param;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CmConnectionParametersTest {

    @Test
    void privateDataLimitsFollowTheManPages() {
        assertEquals(56, CmPrivateData.limit(CmPortSpace.TCP, CmPrivateData.Message.CONNECT));
        assertEquals(196, CmPrivateData.limit(CmPortSpace.TCP, CmPrivateData.Message.ACCEPT));
        assertEquals(180, CmPrivateData.limit(CmPortSpace.UDP, CmPrivateData.Message.CONNECT));
        assertEquals(136, CmPrivateData.limit(CmPortSpace.UDP, CmPrivateData.Message.ACCEPT));
        assertEquals(148, CmPrivateData.limit(CmPortSpace.TCP, CmPrivateData.Message.REJECT));
    }

    @Test
    void privateDataLongerThanTheMessageIsRefused() {
        assertDoesNotThrow(() -> CmPrivateData.check(new byte[56], CmPortSpace.TCP, CmPrivateData.Message.CONNECT));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CmPrivateData.check(new byte[57], CmPortSpace.TCP, CmPrivateData.Message.CONNECT));
        assertEquals("CONNECT on port space TCP carries at most 56 bytes of private data, got 57", e.getMessage());
        assertDoesNotThrow(() -> CmPrivateData.check(new byte[196], CmPortSpace.TCP, CmPrivateData.Message.ACCEPT));
        assertThrows(IllegalArgumentException.class,
                () -> CmPrivateData.check(new byte[197], CmPortSpace.TCP, CmPrivateData.Message.ACCEPT));
    }

    @Test
    void fieldsOutOfRangeAreRefused() {
        CmConnectionParameters p = CmConnectionParameters.defaults();
        assertThrows(IllegalArgumentException.class, () -> p.withRetries(8, 7));
        assertThrows(IllegalArgumentException.class, () -> p.withRetries(7, -1));
        assertThrows(IllegalArgumentException.class, () -> p.withRdmaReads(256, 1));
        assertThrows(IllegalArgumentException.class, () -> p.withPrivateData(new byte[256]));
    }

    @Test
    void privateDataIsCopiedNotShared() {
        byte[] data = {1, 2, 3};
        CmConnectionParameters p = CmConnectionParameters.defaults().withPrivateData(data);
        data[0] = 9;
        assertEquals(1, p.privateData()[0]);
        p.privateData()[1] = 9;
        assertEquals(2, p.privateData()[1]);
    }

    @Test
    void survivesTheRoundTripThroughRdmaConnParam() {
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        CmConnectionParameters p = CmConnectionParameters.defaults().withPrivateData(hello).withRdmaReads(4, 2)
                .withRetries(5, 6).withFlowControl(true);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = p.toNative(arena);
            assertEquals(5, rdma_conn_param.private_data_len(param));
            assertEquals(4, rdma_conn_param.responder_resources(param));
            assertEquals(2, rdma_conn_param.initiator_depth(param));
            assertEquals(p, CmConnectionParameters.fromNative(param));
            assertArrayEquals(hello, CmConnectionParameters.fromNative(param).privateData());
        }
    }

    @Test
    void noPrivateDataIsANullPointer() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = CmConnectionParameters.defaults().toNative(arena);
            assertEquals(MemorySegment.NULL, rdma_conn_param.private_data(param));
            assertEquals(0, CmConnectionParameters.fromNative(param).privateData().length);
        }
    }
}
