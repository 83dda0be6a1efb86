package dev.verbs4j.rig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * This JVM in a cgroup of its own with an rdma.max limit, as a container's runtime sets one; the
 * JVM moves back to where it was at {@link #close()} and the cgroup is removed. A charge stays
 * with the cgroup it was made in, so objects opened before entering do not count, and objects
 * closed after leaving are uncharged from here. Mounts cgroup v2 at /sys/fs/cgroup when the
 * guest has none mounted (the rig runs as root). One at a time: the whole JVM moves.
 */
public final class RdmaCgroupLimit implements AutoCloseable {
    private static final Path MOUNT = Path.of("/sys/fs/cgroup");

    private final Path dir;
    private final Path home;

    private RdmaCgroupLimit(Path dir, Path home) {
        this.dir = dir;
        this.home = home;
    }

    /**
     * Creates cgroup {@code name} under the root, writes {@code rdmaMax} (e.g.
     * {@code rxe0 hca_handle=max hca_object=2}) to its rdma.max and moves this JVM into it.
     */
    public static RdmaCgroupLimit enter(String name, String rdmaMax) {
        try {
            mountCgroup2();
            Files.writeString(MOUNT.resolve("cgroup.subtree_control"), "+rdma");
            Path dir = MOUNT.resolve(name);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("rdma.max"), rdmaMax);
            Path home = MOUNT.resolve(ownCgroup().replaceFirst("^/+", ""));
            Files.writeString(dir.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
            return new RdmaCgroupLimit(dir, home);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up cgroup " + name + " with rdma.max '" + rdmaMax + "'", e);
        }
    }

    private static void mountCgroup2() throws IOException {
        boolean mounted = Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                .anyMatch(l -> l.contains(" " + MOUNT + " ") && l.contains(" - cgroup2 "));
        if (!mounted) {
            Commands.run("mount", "-t", "cgroup2", "none", MOUNT.toString());
        }
    }

    /** The v2 line of /proc/self/cgroup ("0::/path"). */
    private static String ownCgroup() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/cgroup"));
        return lines.stream().filter(l -> l.startsWith("0::")).map(l -> l.substring(3)).findFirst().orElse("/");
    }

    /** The cgroup as /proc/self/cgroup names it while inside, e.g. {@code /limit-test}. */
    public String cgroup() {
        return "/" + MOUNT.relativize(dir);
    }

    /** Its rdma.max file. */
    public Path rdmaMax() {
        return dir.resolve("rdma.max");
    }

    /** What it holds now, its rdma.current, e.g. {@code rxe0 hca_handle=1 hca_object=2}. */
    public String current() {
        try {
            return Files.readString(dir.resolve("rdma.current")).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Back to the cgroup this JVM came from; the cgroup goes once nothing is charged to it. */
    @Override
    public void close() {
        try {
            Files.writeString(home.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
            Files.delete(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot leave or remove " + dir, e);
        }
    }
}
