package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.RdmaCgroupLimit;
import dev.verbs4j.rig.RigEnvironment;
import dev.verbs4j.unix.Errno;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rdma cgroup controller, as containers use it, limits what this process may open on rxe0:
 * the verb over the limit fails with {@link RdmaCgroupLimitException}, whose message names the
 * cgroup, its rdma.max line with what is in use, and how to raise it; everything opened before
 * closes and uncharges (rdma.current back to 0).
 */
@Tag("rdma")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RdmaCgroupLimitRigTest {
    private static final String DEVICE = RigEnvironment.current().device();

    @Test
    void aQueuePairOverTheObjectLimitNamesTheCgroupAndHowToRaiseIt() {
        String limit = DEVICE + " hca_handle=max hca_object=2";
        try (Context ctx = RdmaTestSupport.openDevice(); // opened outside: its handle is not charged here
             RdmaCgroupLimit cgroup = RdmaCgroupLimit.enter("verbs4j-object-limit", limit)) {
            try (ProtectionDomain pd = ctx.allocateProtectionDomain();
                 CompletionQueue cq = ctx.createCompletionQueue(4)) {
                assertEquals(DEVICE + " hca_handle=0 hca_object=2", cgroup.current(), "the PD and the CQ are charged");
                RdmaCgroupLimitException e = assertThrows(RdmaCgroupLimitException.class,
                        () -> pd.createQueuePair(QpInitAttributes.builder(QpType.RC, cq).build()));
                System.out.println(e.getMessage());
                assertEquals("ibv_create_qp", e.verb());
                assertEquals(Errno.EAGAIN, e.errno(), "the kernel's answer to a charge over rdma.max");
                assertEquals(cgroup.cgroup(), e.cgroup());
                assertEquals(cgroup.rdmaMax(), e.rdmaMax());
                assertEquals(limit, e.limit());
                assertTrue(e.getMessage().contains("hca_object") && e.getMessage().contains("'" + limit + "'")
                        && e.getMessage().contains("in use: '" + DEVICE + " hca_handle=0 hca_object=2'")
                        && e.getMessage().contains(cgroup.rdmaMax().toString())
                        && e.getMessage().contains("raise it by writing"), e.getMessage());
                assertEquals(DEVICE + " hca_handle=0 hca_object=2", cgroup.current(), "the failed QP holds nothing");
            }
            assertEquals(DEVICE + " hca_handle=0 hca_object=0", cgroup.current(), "closed objects are uncharged");
        }
    }

    @Test
    void openingADeviceOverTheHandleLimitSaysSo() {
        String limit = DEVICE + " hca_handle=0 hca_object=max";
        try (RdmaCgroupLimit cgroup = RdmaCgroupLimit.enter("verbs4j-handle-limit", limit)) {
            RdmaCgroupLimitException e = assertThrows(RdmaCgroupLimitException.class, () -> Verbs.open(DEVICE).close());
            System.out.println(e.getMessage());
            assertEquals("ibv_open_device", e.verb());
            assertTrue(e.getMessage().contains("hca_handle (one per open device)") && e.getMessage().contains(limit),
                    e.getMessage());
            assertEquals(DEVICE + " hca_handle=0 hca_object=0", cgroup.current());
        }
    }
}
