package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;

/** What a user can do about a failing verb: the messages experts give on the mailing lists. */
final class Hints {
    private Hints() {}

    static VerbsException exception(String what, String verb, int errno) {
        return exception(what, verb, errno, MemlockLimit.current());
    }

    /** As {@link #exception(String, String, int)}, with the locked-memory limit in force. */
    static VerbsException exception(String what, String verb, int errno, MemlockLimit memlock) {
        if (errno == Errno.ENOMEM && (verb.startsWith("ibv_reg_mr") || verb.startsWith("ibv_create"))) {
            if (!memlock.isUnlimited()) {
                return new MemoryLockLimitException(what, verb, memlock);
            }
            // no locked-memory limit to blame: say what else runs out
            return new VerbsException(what, verb, errno, "RLIMIT_MEMLOCK is unlimited, so not the locked-memory "
                    + "limit: the kernel or the device is out of memory for it, or a device limit is reached "
                    + "(max_qp, max_cq, max_mr, max_pd of 'ibv_devinfo -v', counted over all processes: "
                    + "'rdma resource show' lists what is open)");
        }
        if (errno == Errno.EAGAIN && chargesTheRdmaCgroup(verb)) {
            var cgroup = RdmaCgroup.ofThisProcess().filter(c -> !c.limits().isEmpty());
            if (cgroup.isPresent()) {
                return new RdmaCgroupLimitException(what, verb, cgroup.get());
            }
        }
        return new VerbsException(what, verb, errno, hint(verb, errno));
    }

    /** The verbs that make what the rdma cgroup counts: an open device, or an object on it. */
    private static boolean chargesTheRdmaCgroup(String verb) {
        return verb.equals("ibv_open_device") || verb.startsWith("ibv_alloc_") || verb.startsWith("ibv_reg_mr")
                || verb.startsWith("ibv_create_") || verb.equals("rdma_create_qp");
    }

    static String hint(String verb, int errno) {
        return switch (errno) {
            case Errno.ENOSYS -> "the kernel has no RDMA support (no ib_uverbs); use a host with an RDMA "
                    + "device or the soft-RoCE rig (ci/rig)";
            case Errno.ENODEV -> "no such RDMA device, or it went away; list devices with 'bin/verbs4j devices'";
            case Errno.EACCES, Errno.EPERM -> "no permission on /dev/infiniband/*: run as a user with access "
                    + "(group rdma) or as root";
            case Errno.EINVAL -> switch (verb) {
                case "ibv_modify_qp" -> "an attribute is missing or out of range for this QP state transition";
                case "ibv_query_gid", "_ibv_query_gid_table" -> "GID index out of range for this port";
                default -> "an argument is out of range for this device; compare with its query_device limits";
            };
            case Errno.EBUSY -> "objects created from it are still in use; destroy them first";
            case Errno.EOPNOTSUPP -> "the device or its provider does not support this";
            case Errno.ETIMEDOUT -> "the peer did not answer in time: is it running, and is the address/GID right?";
            case Errno.ECONNREFUSED -> "the peer rejected the connection or nothing listens there";
            default -> null;
        };
    }
}
