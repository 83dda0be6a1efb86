package dev.verbs4j.guest.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The network interfaces of the calling thread's network namespace. {@code /proc/thread-self}
 * follows a thread that joined another namespace (setns), where {@code /sys/class/net} and
 * {@code /proc/self} still show the process's.
 */
public final class ThreadNetdevs {
    private static final Path NET_DEV = Path.of("/proc/thread-self/net/dev");

    private ThreadNetdevs() {}

    /**
     * The interfaces this thread's namespace has.
     *
     * @return their names, or empty when procfs cannot tell (then nothing is ruled out)
     */
    public static Optional<Set<String>> current() {
        try {
            Set<String> names = parse(Files.readString(NET_DEV));
            return names.isEmpty() ? Optional.empty() : Optional.of(names);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code /proc/net/dev}: two header lines, then one "name: counters..." line per interface. */
    static Set<String> parse(String procNetDev) {
        Set<String> names = new LinkedHashSet<>();
        procNetDev.lines().skip(2).forEach(line -> {
            int colon = line.indexOf(':');
            if (colon > 0) {
                names.add(line.substring(0, colon).trim());
            }
        });
        return names;
    }
}
