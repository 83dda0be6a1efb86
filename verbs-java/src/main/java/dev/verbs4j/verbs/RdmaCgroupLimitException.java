package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import java.nio.file.Path;

/**
 * A verb failed with EAGAIN while the rdma cgroup controller limits this process: the message
 * names the cgroup, the rdma.max line that limits it with what is in use, and how to raise it.
 * Immutable.
 */
public final class RdmaCgroupLimitException extends VerbsException {
    /** The process's cgroup. */
    private final String cgroup;
    /** The nearest rdma.max that limits a device. */
    private final Path rdmaMax;
    /** Its limiting line. */
    private final String limit;

    RdmaCgroupLimitException(String what, String verb, RdmaCgroup limits) {
        super(what, verb, Errno.EAGAIN, limits.hint(verb));
        this.cgroup = limits.cgroup();
        this.rdmaMax = limits.limits().get(0).file();
        this.limit = limits.limits().get(0).line();
    }

    /**
     * The cgroup this process is charged to, as /proc/self/cgroup names it.
     *
     * @return e.g. {@code /batch/job1}
     */
    public String cgroup() {
        return cgroup;
    }

    /**
     * The nearest rdma.max file that limits a device: where a raise is written.
     *
     * @return e.g. {@code /sys/fs/cgroup/batch/job1/rdma.max}
     */
    public Path rdmaMax() {
        return rdmaMax;
    }

    /**
     * That file's limiting line.
     *
     * @return e.g. {@code rxe0 hca_handle=max hca_object=2}
     */
    public String limit() {
        return limit;
    }
}
