package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_ah_attr;
import dev.verbs4j.bindings.ibv_global_route;
import dev.verbs4j.bindings.ibv_qp_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The QP state machine and attribute masks, checked without a device against ibv_modify_qp(3). */
class QpTransitionsTest {
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
    private static final byte[] GID = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 77, 0, 1};

    @AfterEach
    void free() {
        arena.close();
    }

    private static AddressVector peer() {
        return AddressVector.builder().destGid(GID).sourceGidIndex(1).port(1).build();
    }

    private static RtrAttributes.Builder fullRtr() {
        return RtrAttributes.builder().remote(peer()).pathMtu(PathMtu.MTU_1024).destQpNumber(0x123).rqPsn(0x456);
    }

    @Test
    void maskLiteralsMatchTheHeader() {
        assertEquals(Rdma.IBV_QP_STATE(), QpAttrMask.STATE);
        assertEquals(Rdma.IBV_QP_ACCESS_FLAGS(), QpAttrMask.ACCESS_FLAGS);
        assertEquals(Rdma.IBV_QP_PKEY_INDEX(), QpAttrMask.PKEY_INDEX);
        assertEquals(Rdma.IBV_QP_PORT(), QpAttrMask.PORT);
        assertEquals(Rdma.IBV_QP_QKEY(), QpAttrMask.QKEY);
        assertEquals(Rdma.IBV_QP_AV(), QpAttrMask.AV);
        assertEquals(Rdma.IBV_QP_PATH_MTU(), QpAttrMask.PATH_MTU);
        assertEquals(Rdma.IBV_QP_TIMEOUT(), QpAttrMask.TIMEOUT);
        assertEquals(Rdma.IBV_QP_RETRY_CNT(), QpAttrMask.RETRY_CNT);
        assertEquals(Rdma.IBV_QP_RNR_RETRY(), QpAttrMask.RNR_RETRY);
        assertEquals(Rdma.IBV_QP_RQ_PSN(), QpAttrMask.RQ_PSN);
        assertEquals(Rdma.IBV_QP_MAX_QP_RD_ATOMIC(), QpAttrMask.MAX_QP_RD_ATOMIC);
        assertEquals(Rdma.IBV_QP_MIN_RNR_TIMER(), QpAttrMask.MIN_RNR_TIMER);
        assertEquals(Rdma.IBV_QP_SQ_PSN(), QpAttrMask.SQ_PSN);
        assertEquals(Rdma.IBV_QP_MAX_DEST_RD_ATOMIC(), QpAttrMask.MAX_DEST_RD_ATOMIC);
        assertEquals(Rdma.IBV_QP_CAP(), QpAttrMask.CAP);
        assertEquals(Rdma.IBV_QP_DEST_QPN(), QpAttrMask.DEST_QPN);
        assertEquals(Rdma.IBV_QPS_RTS(), QpState.RTS.value());
        assertEquals(Rdma.IBV_QPS_ERR(), QpState.ERR.value());
        assertEquals(Rdma.IBV_QPT_RC(), QpType.RC.value());
        assertEquals(Rdma.IBV_QPT_UD(), QpType.UD.value());
        assertEquals(Rdma.IBV_MTU_1024(), PathMtu.MTU_1024.value());
    }

    @Test
    void initMasksPerType() {
        Set<Access> rw = EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE);
        assertEquals("STATE|ACCESS_FLAGS|PKEY_INDEX|PORT",
                QpAttrMask.describe(QpTransitions.init(QpType.RC, InitAttributes.connected(1, rw), attr)));
        assertEquals(Access.mask(rw), ibv_qp_attr.qp_access_flags(attr));
        assertEquals(1, ibv_qp_attr.port_num(attr));
        assertEquals(QpState.INIT.value(), ibv_qp_attr.qp_state(attr));
        assertEquals("STATE|ACCESS_FLAGS|PKEY_INDEX|PORT", QpAttrMask.describe(
                QpTransitions.init(QpType.UC, InitAttributes.connected(1, Set.of(Access.REMOTE_WRITE)), attr)));
        assertEquals("STATE|PKEY_INDEX|PORT|QKEY",
                QpAttrMask.describe(QpTransitions.init(QpType.UD, InitAttributes.datagram(2, 0x1234), attr)));
        assertEquals(0x1234, ibv_qp_attr.qkey(attr));
        assertEquals(2, ibv_qp_attr.port_num(attr));
    }

    @Test
    void initRefusesAttributesTheTypeCannotTake() {
        IllegalArgumentException noQkey = assertThrows(IllegalArgumentException.class,
                () -> QpTransitions.init(QpType.UD, InitAttributes.connected(1, Set.of()), attr));
        assertTrue(noQkey.getMessage().startsWith("INIT for UD needs a Q_Key"), noQkey.getMessage());
        IllegalArgumentException ucRead = assertThrows(IllegalArgumentException.class,
                () -> QpTransitions.init(QpType.UC, InitAttributes.connected(1, Set.of(Access.REMOTE_READ)), attr));
        assertTrue(ucRead.getMessage().contains("REMOTE_READ"), ucRead.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> QpTransitions.init(QpType.RC, InitAttributes.datagram(1, 5), attr));
        assertThrows(IllegalArgumentException.class, () -> InitAttributes.connected(0, Set.of()));
    }

    @Test
    void initTakesAllRemoteAndLeavesTheRegionFlagsToTheRegion() {
        QpTransitions.init(QpType.RC, InitAttributes.connected(1, Access.ALL_REMOTE), attr);
        assertEquals(Access.mask(Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC)),
                ibv_qp_attr.qp_access_flags(attr));
        QpTransitions.init(QpType.UC, InitAttributes.connected(1, Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE)),
                attr);
        assertEquals(Access.REMOTE_WRITE.bit(), ibv_qp_attr.qp_access_flags(attr));
    }

    @Test
    void rtrMasksPerType() {
        assertEquals("STATE|AV|PATH_MTU|RQ_PSN|MIN_RNR_TIMER|MAX_DEST_RD_ATOMIC|DEST_QPN",
                QpAttrMask.describe(QpTransitions.rtr(QpType.RC, fullRtr().build(), true, attr)));
        assertEquals(0x123, ibv_qp_attr.dest_qp_num(attr));
        assertEquals(0x456, ibv_qp_attr.rq_psn(attr));
        assertEquals(PathMtu.MTU_1024.value(), ibv_qp_attr.path_mtu(attr));
        assertEquals(QpTransitions.DEFAULT_MIN_RNR_TIMER, ibv_qp_attr.min_rnr_timer(attr));
        assertEquals(QpTransitions.DEFAULT_MAX_DEST_RD_ATOMIC, ibv_qp_attr.max_dest_rd_atomic(attr));
        MemorySegment ah = ibv_qp_attr.ah_attr(attr);
        assertEquals(1, ibv_ah_attr.is_global(ah), "a GID means a global route header");
        assertArrayEquals(GID, ibv_global_route.dgid(ibv_ah_attr.grh(ah)).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(1, ibv_global_route.sgid_index(ibv_ah_attr.grh(ah)));
        assertEquals(64, ibv_global_route.hop_limit(ibv_ah_attr.grh(ah)));

        assertEquals("STATE|AV|PATH_MTU|RQ_PSN|DEST_QPN",
                QpAttrMask.describe(QpTransitions.rtr(QpType.UC, fullRtr().build(), true, attr)));
        assertEquals("STATE", QpAttrMask.describe(QpTransitions.rtr(QpType.UD, RtrAttributes.datagram(), true, attr)));
    }

    @Test
    void rtrNamesWhatIsMissing() {
        IllegalArgumentException noQpn = assertThrows(IllegalArgumentException.class, () -> QpTransitions.rtr(
                QpType.RC, RtrAttributes.builder().remote(peer()).pathMtu(PathMtu.MTU_1024).rqPsn(0).build(), true, attr));
        assertEquals("RTR for RC needs destination QP number", noQpn.getMessage());
        IllegalArgumentException noMtu = assertThrows(IllegalArgumentException.class, () -> QpTransitions.rtr(
                QpType.UC, RtrAttributes.builder().remote(peer()).destQpNumber(1).rqPsn(0).build(), true, attr));
        assertEquals("RTR for UC needs a path MTU", noMtu.getMessage());
        IllegalArgumentException noAv = assertThrows(IllegalArgumentException.class, () -> QpTransitions.rtr(
                QpType.RC, RtrAttributes.builder().pathMtu(PathMtu.MTU_256).destQpNumber(1).rqPsn(0).build(), true, attr));
        assertTrue(noAv.getMessage().contains("remote address"), noAv.getMessage());
        IllegalArgumentException noGid = assertThrows(IllegalArgumentException.class, () -> QpTransitions.rtr(
                QpType.RC, fullRtr().remote(AddressVector.builder().destLid(3).build()).build(), true, attr));
        assertTrue(noGid.getMessage().contains("destination GID"), noGid.getMessage());
        // on InfiniBand a LID alone is fine
        QpTransitions.rtr(QpType.RC, fullRtr().remote(AddressVector.builder().destLid(3).build()).build(), false, attr);
        assertEquals(0, ibv_ah_attr.is_global(ibv_qp_attr.ah_attr(attr)));

        assertThrows(IllegalArgumentException.class,
                () -> QpTransitions.rtr(QpType.UC, fullRtr().minRnrTimer(3).build(), true, attr));
        assertThrows(IllegalArgumentException.class,
                () -> QpTransitions.rtr(QpType.UD, fullRtr().build(), true, attr));
        assertThrows(IllegalArgumentException.class, () -> RtrAttributes.builder().destQpNumber(1 << 24));
        assertThrows(IllegalArgumentException.class, () -> RtrAttributes.builder().minRnrTimer(32));
    }

    @Test
    void rtsMasksAndDefaults() {
        assertEquals("STATE|TIMEOUT|RETRY_CNT|RNR_RETRY|MAX_QP_RD_ATOMIC|SQ_PSN",
                QpAttrMask.describe(QpTransitions.rts(QpType.RC, RtsAttributes.withSendPsn(77), attr)));
        assertEquals(77, ibv_qp_attr.sq_psn(attr));
        assertEquals(QpTransitions.DEFAULT_TIMEOUT, ibv_qp_attr.timeout(attr));
        assertEquals(QpTransitions.DEFAULT_RETRY_COUNT, ibv_qp_attr.retry_cnt(attr));
        assertEquals(QpTransitions.DEFAULT_RNR_RETRY, ibv_qp_attr.rnr_retry(attr));
        assertEquals("STATE|SQ_PSN", QpAttrMask.describe(QpTransitions.rts(QpType.UC, RtsAttributes.withSendPsn(1), attr)));
        assertEquals("STATE|SQ_PSN", QpAttrMask.describe(QpTransitions.rts(QpType.UD, RtsAttributes.withSendPsn(1), attr)));
        IllegalArgumentException noPsn = assertThrows(IllegalArgumentException.class,
                () -> QpTransitions.rts(QpType.RC, RtsAttributes.builder().timeout(3).build(), attr));
        assertEquals("RTS for RC needs the send PSN", noPsn.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> QpTransitions.rts(QpType.UD, RtsAttributes.builder().sqPsn(1).retryCount(3).build(), attr));
        assertThrows(IllegalArgumentException.class, () -> RtsAttributes.builder().retryCount(8));
    }

    @Test
    void stateMachineEdges() {
        QpTransitions.checkTransition(QpState.RESET, QpState.INIT);
        QpTransitions.checkTransition(QpState.INIT, QpState.INIT);
        QpTransitions.checkTransition(QpState.INIT, QpState.RTR);
        QpTransitions.checkTransition(QpState.RTR, QpState.RTS);
        QpTransitions.checkTransition(QpState.RTS, QpState.SQD);
        QpTransitions.checkTransition(QpState.SQD, QpState.RTS);
        QpTransitions.checkTransition(QpState.SQE, QpState.RTS);
        for (QpState any : QpState.values()) {
            QpTransitions.checkTransition(any, QpState.ERR);
            QpTransitions.checkTransition(any, QpState.RESET);
        }
        QpStateException skip = assertThrows(QpStateException.class,
                () -> QpTransitions.checkTransition(QpState.RESET, QpState.RTR));
        assertEquals(QpState.RESET, skip.current());
        assertEquals(QpState.RTR, skip.requested());
        assertTrue(skip.getMessage().startsWith("cannot move the QP from RESET to RTR"), skip.getMessage());
        assertThrows(QpStateException.class, () -> QpTransitions.checkTransition(QpState.INIT, QpState.RTS));
        assertThrows(QpStateException.class, () -> QpTransitions.checkTransition(QpState.RTS, QpState.INIT));
        assertThrows(QpStateException.class, () -> QpTransitions.checkTransition(QpState.ERR, QpState.RTS));
        assertThrows(QpStateException.class, () -> QpTransitions.checkTransition(QpState.RTR, QpState.SQD));
    }

    @Test
    void addressVectorRoundTripsThroughTheNativeStruct() {
        AddressVector av = AddressVector.builder().destGid(GID).sourceGidIndex(3).hopLimit(9).trafficClass(0x20)
                .flowLabel(0x12345).serviceLevel(2).port(1).build();
        MemorySegment ah = arena.allocate(ibv_ah_attr.layout());
        av.writeTo(ah);
        assertEquals(av, AddressVector.readFrom(ah));
        assertThrows(IllegalArgumentException.class, () -> AddressVector.builder().destGid(new byte[4]));
        assertThrows(IllegalArgumentException.class, () -> AddressVector.builder().serviceLevel(16));
    }
}
