package dev.verbs4j.guest.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a process states so that its peer can tell whether shared memory could join them: the
 * kernel it runs on (its boot id), the network namespace of the calling thread (the abstract
 * unix socket that proves it is scoped to that namespace), its effective uid and its pid. The
 * statement is a hint; the shared-memory handshake proves it (a connect to an abstract socket,
 * the kernel's SO_PEERCRED).
 *
 * @param bootId    /proc/sys/kernel/random/boot_id; "" if unknown
 * @param netns     the target of /proc/thread-self/ns/net, e.g. {@code net:[4026531840]}; "" if unknown
 * @param uid       the effective uid; -1 if unknown
 * @param pid       the process id
 */
public record SameHostFacts(String bootId, String netns, int uid, long pid) {
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    private static final Path THREAD_NETNS = Path.of("/proc/thread-self/ns/net");
    private static final Path STATUS = Path.of("/proc/self/status");

    /**
     * This process, as the calling thread sees it.
     *
     * @return the facts, with "" or -1 where one could not be read
     */
    public static SameHostFacts here() {
        return new SameHostFacts(read(BOOT_ID), threadNetns(), effectiveUid(), ProcessHandle.current().pid());
    }

    /**
     * Why a peer that stated {@code peer} cannot share memory with this process, or null when it could.
     *
     * @param peer what the peer stated
     * @return the reason in words ("the peer runs as uid 1001, this process as 1000"), or null
     */
    public String gapTo(SameHostFacts peer) {
        if (bootId.isEmpty() || !bootId.equals(peer.bootId)) {
            return "the peer runs on another kernel (boot id " + peer.bootId + ", here " + bootId + ")";
        }
        if (netns.isEmpty() || !netns.equals(peer.netns)) {
            return "the peer is in another network namespace (" + peer.netns + ", here " + netns + ")";
        }
        if (uid < 0 || uid != peer.uid) {
            return "the peer runs as uid " + peer.uid + ", this process as " + uid;
        }
        return null;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static String threadNetns() {
        try {
            return Files.readSymbolicLink(THREAD_NETNS).toString();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static int effectiveUid() {
        try {
            List<String> lines = Files.readAllLines(STATUS);
            for (String line : lines) {
                if (line.startsWith("Uid:")) {
                    return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown: no shared memory
        }
        return -1;
    }
}
