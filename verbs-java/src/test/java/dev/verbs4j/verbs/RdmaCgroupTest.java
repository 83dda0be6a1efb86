package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the rdma cgroup's limits are read from: /proc/self/cgroup's path under the mount that
 * /proc/self/mountinfo names (cgroup v2, or the v1 rdma hierarchy), the limiting rdma.max lines
 * from there up, nearest first, and what the hint says (a recorded tree, no kernel needed).
 */
class RdmaCgroupTest {
    @TempDir
    Path mount;

    private static String mountinfo(Path at, String root, String fstype, String superOptions) {
        return "35 24 0:30 " + root + " " + at + " rw,nosuid,nodev,noexec,relatime shared:9 - " + fstype + " "
                + fstype + " " + superOptions;
    }

    private void cgroup(String path, String max, String current) throws Exception {
        Path dir = mount.resolve(path);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("rdma.max"), max);
        Files.writeString(dir.resolve("rdma.current"), current);
    }

    @Test
    void v2LimitsFromTheProcessCgroupUpNearestFirst() throws Exception {
        cgroup("batch", "mlx5_0 hca_handle=4 hca_object=max\nrxe0 hca_handle=max hca_object=max\n",
                "mlx5_0 hca_handle=1 hca_object=0\nrxe0 hca_handle=0 hca_object=0\n");
        cgroup("batch/job1", "rxe0 hca_handle=max hca_object=2\n", "rxe0 hca_handle=1 hca_object=2\n");
        RdmaCgroup c = RdmaCgroup.find(List.of("0::/batch/job1"),
                List.of("22 1 0:5 / /proc rw - proc proc rw", mountinfo(mount, "/", "cgroup2", "rw"))).orElseThrow();
        assertEquals("/batch/job1", c.cgroup());
        assertEquals(List.of(new RdmaCgroup.Limit(mount.resolve("batch/job1/rdma.max"), "rxe0 hca_handle=max hca_object=2",
                        "rxe0 hca_handle=1 hca_object=2"),
                new RdmaCgroup.Limit(mount.resolve("batch/rdma.max"), "mlx5_0 hca_handle=4 hca_object=max",
                        "mlx5_0 hca_handle=1 hca_object=0")), c.limits(), "rxe0's all-max line in batch limits nothing");
        String hint = c.hint("ibv_create_qp");
        assertTrue(hint.startsWith("the rdma cgroup controller refused the charge: ibv_create_qp takes one hca_object"), hint);
        assertTrue(hint.contains(mount.resolve("batch/job1/rdma.max") + " says 'rxe0 hca_handle=max hca_object=2' "
                + "(in use: 'rxe0 hca_handle=1 hca_object=2') for this process's cgroup /batch/job1"), hint);
        assertTrue(hint.contains("'rxe0 hca_handle=max hca_object=max'"), hint);
        assertTrue(c.hint("ibv_open_device").contains("takes one hca_handle (one per open device)"));
    }

    @Test
    void aContainersCgroupNamespaceMountsItsOwnCgroupAsTheRoot() throws Exception {
        cgroup("", "rxe0 hca_handle=1 hca_object=16\n", "rxe0 hca_handle=1 hca_object=3\n");
        RdmaCgroup c = RdmaCgroup.find(List.of("0::/"), List.of(mountinfo(mount, "/", "cgroup2", "rw"))).orElseThrow();
        assertEquals(1, c.limits().size());
        assertEquals("rxe0 hca_handle=1 hca_object=16", c.limits().getFirst().line());
    }

    @Test
    void theV1RdmaHierarchyAndAMountOfASubtree() throws Exception {
        cgroup("job1", "rxe0 hca_handle=2 hca_object=max\n", "rxe0 hca_handle=2 hca_object=5\n");
        RdmaCgroup c = RdmaCgroup.find(List.of("12:pids:/x", "7:rdma:/docker/job1", "0::/other"),
                List.of(mountinfo(Path.of("/elsewhere"), "/", "cgroup", "rw,pids"),
                        mountinfo(mount, "/docker", "cgroup", "rw,rdma"))).orElseThrow();
        assertEquals("/docker/job1", c.cgroup());
        assertEquals("rxe0 hca_handle=2 hca_object=max", c.limits().getFirst().line());
    }

    @Test
    void noRdmaControllerMountedMeansNothingToSay() throws Exception {
        assertEquals(Optional.empty(), RdmaCgroup.find(List.of("0::/a"), List.of("22 1 0:5 / /proc rw - proc proc rw")));
        assertTrue(RdmaCgroup.find(List.of("0::/"), List.of(mountinfo(mount, "/", "cgroup2", "rw"))).orElseThrow()
                .limits().isEmpty(), "the root has no rdma.max: no limit");
    }
}
