package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import dev.verbs4j.bindings.Rdma;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Java starts child processes (ProcessBuilder, and the JDK itself), and on kernels without
 * copy-on-fork for pinned pages a child touching registered memory corrupts RDMA transfers.
 * libibverbs knows whether protection is needed; ask it once, before any other verb.
 */
final class ForkSafety {
    private static final Logger LOG = LoggerFactory.getLogger(ForkSafety.class);

    private ForkSafety() {}

    static void ensure() {
        int state = Rdma.ibv_is_fork_initialized();
        if (state == Rdma.IBV_FORK_DISABLED()) {
            int rc = Rdma.ibv_fork_init();
            LOG.debug("ibv_fork_init: {}", rc == 0 ? "enabled" : "failed with " + Errno.name(rc < 0 ? -rc : rc));
        }
    }
}
