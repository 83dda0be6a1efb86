package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Wrong transitions on real QPs: refused with the states or the missing attribute named, the QP
 * left where it was (nothing reached ibv_modify_qp), and still usable afterwards.
 */
@Tag("rdma")
class QpStateErrorsRigTest {

    @Test
    void transitionsOutOfOrderNameBothStates() {
        try (QpLoopback l = QpLoopback.resourcesOnly()) {
            QueuePair qp = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA).build()));
            assertEquals(QpState.RESET, qp.state());

            QpStateException rtr = assertThrows(QpStateException.class, () -> qp.toRtr(rtr(l, qp).build()));
            assertEquals(QpState.RESET, rtr.current());
            assertEquals(QpState.RTR, rtr.requested());
            assertTrue(rtr.getMessage().contains("from RESET to RTR") && rtr.getMessage().contains("toInit"),
                    rtr.getMessage());

            QpStateException rts = assertThrows(QpStateException.class, () -> qp.toRts(RtsAttributes.withSendPsn(1)));
            assertEquals(QpState.RESET, rts.current());
            assertEquals(QpState.RTS, rts.requested());
            assertThrows(QpStateException.class, qp::toSqd);
            assertEquals(QpState.RESET, qp.state(), "refused transitions leave the QP alone");

            qp.toInit(InitAttributes.connected(QpLoopback.PORT, EnumSet.of(Access.REMOTE_WRITE)));
            QpStateException rtsFromInit = assertThrows(QpStateException.class,
                    () -> qp.toRts(RtsAttributes.withSendPsn(1)));
            assertEquals(QpState.INIT, rtsFromInit.current());
            assertTrue(rtsFromInit.getMessage().contains("toRtr"), rtsFromInit.getMessage());
            assertEquals(QpState.INIT, qp.state());
        }
    }

    @Test
    void missingOrWrongAttributesAreNamed() {
        try (QpLoopback l = QpLoopback.resourcesOnly()) {
            QueuePair qp = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA).build()));
            QueuePair ud = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.UD, l.cqA)
                    .capabilities(QpCapabilities.small()).build()));

            IllegalArgumentException noQkey = assertThrows(IllegalArgumentException.class,
                    () -> ud.toInit(InitAttributes.connected(QpLoopback.PORT, EnumSet.noneOf(Access.class))));
            assertTrue(noQkey.getMessage().contains("Q_Key"), noQkey.getMessage());
            assertEquals(QpState.RESET, ud.state());

            qp.toInit(InitAttributes.connected(QpLoopback.PORT, EnumSet.of(Access.REMOTE_WRITE)));
            RtrAttributes.Builder noQpn = RtrAttributes.builder().remote(l.addressOfSelf()).pathMtu(PathMtu.MTU_1024)
                    .rqPsn(0);
            IllegalArgumentException qpn = assertThrows(IllegalArgumentException.class, () -> qp.toRtr(noQpn.build()));
            assertEquals("RTR for RC needs destination QP number", qpn.getMessage());

            IllegalArgumentException mtu = assertThrows(IllegalArgumentException.class, () -> qp.toRtr(
                    RtrAttributes.builder().remote(l.addressOfSelf()).destQpNumber(qp.number()).rqPsn(0).build()));
            assertTrue(mtu.getMessage().contains("path MTU"), mtu.getMessage());

            // rxe0's port is Ethernet: a destination without a GID cannot be reached, and the port says so
            IllegalArgumentException gid = assertThrows(IllegalArgumentException.class, () -> qp.toRtr(
                    rtr(l, qp).remote(AddressVector.builder().destLid(1).port(QpLoopback.PORT).build()).build()));
            assertTrue(gid.getMessage().contains("destination GID") && gid.getMessage().contains("RoCE"),
                    gid.getMessage());

            // more responder resources than the device has, checked against its query_device limit
            int tooMany = qp.deviceAttributes().maxQpRdAtom() + 1;
            IllegalArgumentException atomics = assertThrows(IllegalArgumentException.class,
                    () -> qp.toRtr(rtr(l, qp).maxDestRdAtomic(tooMany).build()));
            assertTrue(atomics.getMessage().contains("max_qp_rd_atom"), atomics.getMessage());
            assertEquals(QpState.INIT, qp.state(), "nothing reached ibv_modify_qp");

            qp.toRtr(rtr(l, qp).build()); // the full set works on the same QP
            assertEquals(QpState.RTR, qp.state());
            IllegalArgumentException noPsn = assertThrows(IllegalArgumentException.class,
                    () -> qp.toRts(RtsAttributes.builder().build()));
            assertTrue(noPsn.getMessage().contains("send PSN"), noPsn.getMessage());
        }
    }

    @Test
    void aValueTheDeviceRejectsComesBackWithVerbErrnoAndMask() {
        try (QpLoopback l = QpLoopback.resourcesOnly()) {
            QueuePair qp = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA).build()));
            // port 2 passes Java's range check, but rxe0 has one port: the kernel refuses it
            VerbsException e = assertThrows(VerbsException.class, () -> qp.toInit(
                    InitAttributes.connected(2, EnumSet.of(Access.REMOTE_WRITE))));
            assertEquals("ibv_modify_qp", e.verb());
            assertEquals(Errno.EINVAL, e.errno(), e.getMessage());
            assertTrue(e.getMessage().contains("from RESET to INIT") && e.getMessage().contains("PORT"),
                    e.getMessage());
            assertEquals(QpState.RESET, qp.state());
            qp.toInit(InitAttributes.connected(QpLoopback.PORT, EnumSet.of(Access.REMOTE_WRITE)));
            assertEquals(QpState.INIT, qp.state());
        }
    }

    /** A complete INIT → RTR for {@code qp} talking to itself. */
    private static RtrAttributes.Builder rtr(QpLoopback l, QueuePair qp) {
        return RtrAttributes.builder().remote(l.addressOfSelf()).pathMtu(PathMtu.MTU_1024)
                .destQpNumber(qp.number()).rqPsn(0);
    }
}
