package dev.verbs4j.verbs;

import dev.verbs4j.rig.ResourceShow;
import dev.verbs4j.rig.RigEnvironment;
import dev.verbs4j.unix.Errno;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Run by {@link MemlockLimitRigTest} in a child JVM started with a 64 KiB RLIMIT_MEMLOCK and
 * without CAP_IPC_LOCK: registers 1 MiB on the rig's device and reports what happened on stdout,
 * one "key: value" line each. Exit status 0 when the registration failed with
 * MemoryLockLimitException and nothing leaked, 1 otherwise.
 */
public final class MemlockChild {
    private static final int CAP_IPC_LOCK = 14;

    private MemlockChild() {}

    public static void main(String[] args) throws IOException {
        boolean ok = true;
        String status = Files.readString(Path.of("/proc/self/status"));
        long capEff = Long.parseUnsignedLong(field(status, "CapEff"), 16);
        System.out.println("cap_ipc_lock: " + ((capEff >> CAP_IPC_LOCK & 1) != 0));
        System.out.println("memlock: " + MemlockLimit.current().describe());
        String device = RigEnvironment.current().device();
        Map<String, Integer> before = ResourceShow.counts(device);
        try (Context ctx = RdmaTestSupport.openDevice();
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             Arena arena = Arena.ofConfined()) {
            // under the limit: the device and the PD work, so a failure below is the limit's doing
            try (MemoryRegion small = pd.register(arena.allocate(16 << 10, 4096), Set.of(Access.LOCAL_WRITE))) {
                System.out.println("small: registered " + small.length());
            }
            MemorySegment big = arena.allocate(1 << 20, 4096);
            try (MemoryRegion mr = pd.register(big, Set.of(Access.LOCAL_WRITE))) {
                System.out.println("big: registered " + mr.length() + " (the limit was not enforced)");
                ok = false;
            } catch (MemoryLockLimitException e) {
                System.out.println("exception: " + e.getClass().getSimpleName());
                System.out.println("verb: " + e.verb());
                System.out.println("errno: " + Errno.name(e.errno()));
                System.out.println("limit: " + e.limit().soft() + " " + e.limit().hard());
                System.out.println("message: " + e.getMessage());
            } catch (RuntimeException e) {
                System.out.println("exception: " + e);
                ok = false;
            }
            // nothing pinned, no MR left on the device, and the PD has no phantom child
            System.out.println("pinned: " + field(Files.readString(Path.of("/proc/self/status")), "VmPin"));
            Map<String, Integer> after = ResourceShow.counts(device);
            System.out.println("mr: " + before.get("mr") + " -> " + after.get("mr"));
            ok &= before.get("mr").equals(after.get("mr"));
        }
        System.out.println("closed: pd and context");
        System.exit(ok ? 0 : 1);
    }

    private static String field(String procStatus, String name) {
        for (String line : procStatus.split("\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new IllegalStateException(name + " not in /proc/self/status");
    }
}
