package dev.verbs4j.bindings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Kernel resource tracking as reported by iproute2's {@code rdma resource show}: lets a test see
 * that the objects it created through the bindings really exist, and are gone after cleanup.
 */
final class RdmaResources {

    static final List<String> TYPES = List.of("pd", "mr", "cq", "qp");

    private RdmaResources() {
    }

    /** Counts per resource type of the objects that this process holds on {@code device}. */
    static Map<String, Integer> ownedByThisProcess(String device) throws IOException, InterruptedException {
        Set<String> threadIds = threadIdsOfThisProcess();
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String type : TYPES) {
            counts.put(type, countOwned(rdma("resource", "show", type), threadIds, device));
        }
        return counts;
    }

    /**
     * The kernel records the calling thread, not the process, as an object's owner, and the JVM
     * runs main on a thread other than the process leader: so "pid" is compared with every thread id.
     */
    static Set<String> threadIdsOfThisProcess() throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.map(task -> task.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    /** The raw listing of every resource type, for failure messages. */
    static String listings() throws IOException, InterruptedException {
        StringBuilder text = new StringBuilder();
        for (String type : TYPES) {
            text.append("rdma resource show ").append(type).append(":\n").append(rdma("resource", "show", type));
        }
        return text.toString();
    }

    /** The one-line-per-device summary, e.g. {@code 0: rxe0: pd 1 cq 1 qp 1 cm_id 0 mr 0 ctx 0 srq 0}. */
    static String summary() throws IOException, InterruptedException {
        return rdma("resource", "show").strip();
    }

    /**
     * Parses one {@code rdma resource show TYPE} listing. Objects are named by {@code dev NAME}
     * (pd, mr, cq) or {@code link NAME/PORT} (qp); user-space owners carry {@code pid N}, kernel
     * owners only a bracketed comm.
     */
    static int countOwned(String listing, Set<String> ownerIds, String device) {
        int count = 0;
        for (String line : listing.split("\n")) {
            String[] tokens = line.trim().split("\\s+");
            String lineDevice = null;
            String linePid = null;
            for (int i = 0; i + 1 < tokens.length; i++) {
                switch (tokens[i]) {
                    case "dev" -> lineDevice = tokens[i + 1];
                    case "link" -> lineDevice = tokens[i + 1].split("/")[0];
                    case "pid" -> linePid = tokens[i + 1];
                    default -> { }
                }
            }
            if (device.equals(lineDevice) && linePid != null && ownerIds.contains(linePid)) {
                count++;
            }
        }
        return count;
    }

    private static String rdma(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("rdma"));
        command.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command + " (" + e.getMessage() + "); apt-get install iproute2", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new AssertionError(command + " failed:\n" + output);
        }
        return output;
    }
}
