package dev.verbs4j.verbs;

import dev.verbs4j.rig.Commands;
import dev.verbs4j.rig.LinkFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the wire and the devices counted: rxe's own counters of one side's device (from sysfs where
 * this JVM sees the device, else {@code rdma statistic} run in its namespace) and netem's packets
 * sent and dropped on a faulted netdev ({@code tc -s qdisc}).
 */
final class WireCounters {
    private static final Pattern NETEM = Pattern.compile("qdisc netem .*?Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+)",
            Pattern.DOTALL);

    private WireCounters() {}

    /** rxe's counters of {@code side}'s device, e.g. sent_pkts, retry_exceeded_err, duplicate_request. */
    static Map<String, Long> rxe(NetnsSide side) {
        // shared netns mode: the device's sysfs is ours to read, without a process (each costs ~0.3 s in the rig)
        Path sysfs = Path.of("/sys/class/infiniband", side.ctx.name(), "ports", String.valueOf(NetnsSide.PORT),
                "hw_counters");
        if (Files.isDirectory(sysfs)) {
            return fromSysfs(sysfs);
        }
        String out = Commands.run("ip", "netns", "exec", side.ns.name(), "rdma", "statistic", "show", "link",
                side.ctx.name() + "/" + NetnsSide.PORT);
        String[] words = out.trim().split("\\s+");
        Map<String, Long> counters = new HashMap<>();
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i + 1].matches("\\d+")) {
                counters.put(words[i], Long.parseLong(words[i + 1]));
            }
        }
        return counters;
    }

    private static Map<String, Long> fromSysfs(Path dir) {
        Map<String, Long> counters = new HashMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String value = Files.readString(f).trim();
                if (value.matches("\\d+")) {
                    counters.put(f.getFileName().toString(), Long.parseLong(value));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counters;
    }

    /** {@code after - before} for counter {@code name}; 0 when the device has no such counter. */
    static long delta(Map<String, Long> before, Map<String, Long> after, String name) {
        return after.getOrDefault(name, 0L) - before.getOrDefault(name, 0L);
    }

    /** The packets netem passed on and dropped on {@code link}'s netdev since it was installed. */
    static long[] netem(LinkFaults link) {
        String stats = link.stats();
        Matcher m = NETEM.matcher(stats);
        if (!m.find()) {
            throw new AssertionError("no netem on " + link.netdev() + ": " + stats);
        }
        return new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))};
    }
}
