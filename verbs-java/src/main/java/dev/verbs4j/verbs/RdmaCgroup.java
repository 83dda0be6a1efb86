package dev.verbs4j.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rdma cgroup controller's view of this process: the cgroup it is charged to and the limits
 * ({@code rdma.max}) on the way up. Each open device charges one {@code hca_handle}, each verbs
 * object (PD, MR, CQ, QP, SRQ, AH, ...) one {@code hca_object}; a charge over a limit fails the
 * verb with EAGAIN (measured on Linux 6.1: ibv_alloc_pd, ibv_reg_mr, ibv_create_cq and
 * ibv_create_qp each got EAGAIN at the limit). Containers set these limits; cgroup v2 and the v1
 * rdma hierarchy are both read.
 *
 * @param cgroup the process's cgroup, as /proc/self/cgroup names it (e.g. {@code /batch/job1})
 * @param limits the cgroups from there up whose rdma.max limits a device, nearest first
 */
record RdmaCgroup(String cgroup, List<Limit> limits) {
    private static final Path PROC_CGROUP = Path.of("/proc/self/cgroup");
    private static final Path MOUNTINFO = Path.of("/proc/self/mountinfo");

    /**
     * One limiting line of an rdma.max.
     *
     * @param file    the rdma.max file, e.g. {@code /sys/fs/cgroup/batch/rdma.max}
     * @param line    its line for a device, e.g. {@code rxe0 hca_handle=max hca_object=2}
     * @param current that device's line of rdma.current beside it, "" when unread
     */
    record Limit(Path file, String line, String current) {}

    /** This process's rdma cgroup and its limits; empty when there is no rdma controller to read. */
    static Optional<RdmaCgroup> ofThisProcess() {
        try {
            return find(Files.readAllLines(PROC_CGROUP), Files.readAllLines(MOUNTINFO));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** From the lines of /proc/self/cgroup and /proc/self/mountinfo. */
    static Optional<RdmaCgroup> find(List<String> procCgroup, List<String> mountinfo) throws IOException {
        // v1 names the controller in its line ("7:rdma:/a"); v2 has one line, "0::/a"
        String path = null;
        boolean v1 = false;
        for (String line : procCgroup) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && List.of(f[1].split(",")).contains("rdma")) {
                path = f[2];
                v1 = true;
            } else if (f.length == 3 && f[0].equals("0") && f[1].isEmpty() && path == null) {
                path = f[2];
            }
        }
        if (path == null) {
            return Optional.empty();
        }
        for (String mount : mountinfo) {
            // id parent dev root mountpoint options [optional...] - fstype source superoptions
            String[] f = mount.split(" ");
            int dash = List.of(f).indexOf("-");
            if (dash < 5 || dash + 3 >= f.length) {
                continue;
            }
            boolean fits = v1 ? f[dash + 1].equals("cgroup") && List.of(f[dash + 3].split(",")).contains("rdma")
                    : f[dash + 1].equals("cgroup2");
            String root = f[3];
            if (fits && (root.equals("/") || path.equals(root) || path.startsWith(root + "/"))) {
                Path top = Path.of(unescape(f[4]));
                String below = root.equals("/") ? path : path.substring(root.length());
                return Optional.of(new RdmaCgroup(path, limitsUpFrom(top, below)));
            }
        }
        return Optional.empty();
    }

    /** The rdma.max lines that limit something, from {@code below} under {@code top} up to {@code top}. */
    private static List<Limit> limitsUpFrom(Path top, String below) throws IOException {
        List<Limit> limits = new ArrayList<>();
        for (Path dir = top.resolve(below.replaceFirst("^/+", "")).normalize(); dir.startsWith(top); dir = dir.getParent()) {
            Path max = dir.resolve("rdma.max");
            if (Files.isReadable(max)) {
                List<String> current = Files.isReadable(dir.resolve("rdma.current"))
                        ? Files.readAllLines(dir.resolve("rdma.current")) : List.of();
                for (String line : Files.readAllLines(max)) {
                    if (line.contains("=") && !line.replaceAll("\\S+=max", "").contains("=")) {
                        continue; // every resource of the device at max: no limit here
                    }
                    String device = line.split(" ")[0];
                    String used = current.stream().filter(c -> c.startsWith(device + " ")).findFirst().orElse("");
                    limits.add(new Limit(max, line.trim(), used.trim()));
                }
            }
            if (dir.equals(top)) {
                break;
            }
        }
        return limits;
    }

    /** mountinfo escapes space, tab, newline and backslash as octal. */
    private static String unescape(String field) {
        return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    /**
     * What to say when {@code verb} failed with EAGAIN under these limits: the limiting cgroup, its
     * rdma.max line and what is in use, and how to raise it.
     */
    String hint(String verb) {
        Limit nearest = limits.get(0);
        String resource = verb.equals("ibv_open_device") ? "hca_handle (one per open device)"
                : "hca_object (one per PD, MR, CQ, QP, SRQ or AH)";
        String device = nearest.line().split(" ")[0];
        StringBuilder s = new StringBuilder("the rdma cgroup controller refused the charge: ").append(verb)
                .append(" takes one ").append(resource).append(", and ").append(nearest.file()).append(" says '")
                .append(nearest.line()).append('\'');
        if (!nearest.current().isEmpty()) {
            s.append(" (in use: '").append(nearest.current()).append("')");
        }
        s.append(" for this process's cgroup ").append(cgroup);
        for (Limit further : limits.subList(1, limits.size())) {
            s.append("; ").append(further.file()).append(" says '").append(further.line()).append('\'');
        }
        return s.append("; raise it by writing, e.g., '").append(device)
                .append(" hca_handle=max hca_object=max' (or larger numbers) to that rdma.max as root or the cgroup's "
                        + "owner, or run the process in a cgroup without that limit (a container's rdma limit)")
                .toString();
    }
}
