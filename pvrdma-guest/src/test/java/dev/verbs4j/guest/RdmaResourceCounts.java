package dev.verbs4j.guest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The kernel's own count of RDMA objects ({@code rdma resource show}: pd, cq, qp, mr, ctx... per
 * device, every process together) and this JVM's open verbs file descriptors (device contexts
 * and completion channels). Equal before and after an operation means it left nothing behind.
 */
record RdmaResourceCounts(Map<String, Integer> counts) {

    static RdmaResourceCounts now() throws IOException, InterruptedException {
        Map<String, Integer> counts = new TreeMap<>(parse(RigProcess.run(List.of("rdma", "resource", "show"))));
        counts.put("fd uverbs (this JVM)", openFds("uverbs"));
        counts.put("fd infinibandevent (this JVM)", openFds("infinibandevent"));
        return new RdmaResourceCounts(counts);
    }

    /** "0: rxe0: pd 1 cq 1 qp 1 cm_id 0 mr 0 ctx 0 srq 0" → {"rxe0 pd": 1, "rxe0 cq": 1, ...}. */
    static Map<String, Integer> parse(RigProcess shown) {
        if (shown.exitCode() != 0 || shown.output().isBlank()) {
            throw new IllegalStateException("rdma resource show failed (" + shown.exitCode() + "): " + shown.output());
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : shown.output().strip().split("\n")) {
            String[] words = line.strip().split("\\s+");
            if (words.length < 4 || !words[1].endsWith(":")) {
                throw new IllegalStateException("unexpected line of rdma resource show: " + line);
            }
            String device = words[1].substring(0, words[1].length() - 1);
            for (int i = 2; i + 1 < words.length; i += 2) {
                counts.put(device + " " + words[i], Integer.parseInt(words[i + 1]));
            }
        }
        return counts;
    }

    private static int openFds(String targetContains) throws IOException {
        int n = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).toString().contains(targetContains)) {
                        n++;
                    }
                } catch (IOException closedMeanwhile) {
                    // the directory stream's own fd, or one closed while listing
                }
            }
        }
        return n;
    }

    /** Every count as it was at {@code before}. */
    boolean sameAs(RdmaResourceCounts before) {
        return counts.equals(before.counts);
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
