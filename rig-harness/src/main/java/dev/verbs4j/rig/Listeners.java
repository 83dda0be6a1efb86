package dev.verbs4j.rig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Waits until a server peer listens, read from the system's own tables, never after a fixed time. */
public final class Listeners {
    private Listeners() {}

    /**
     * Waits until something listens on TCP {@code port}, or the server ended. Reads the server's
     * own /proc/PID/net, so a server started under {@code ip netns exec} is seen in its namespace.
     */
    public static void awaitTcpListen(int port, Peer server) throws Exception {
        String needle = String.format(Locale.ROOT, ":%04X", port);
        String net = "/proc/" + server.pid() + "/net/";
        server.awaitUntil(() -> {
            for (String table : List.of(net + "tcp", net + "tcp6")) {
                for (String line : readLinesIfPresent(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(needle) && f[3].equals("0A")) {
                        return true;
                    }
                }
            }
            return false;
        }, () -> "listening on TCP port " + port);
    }

    /**
     * Waits until an rdma_cm id listens on {@code port} (rdma_cm has no TCP socket to look for),
     * as {@code rdma resource show cm_id} lists it, or the server ended.
     */
    public static void awaitCmListen(int port, Peer server) throws Exception {
        Pattern listening = Pattern.compile("state LISTEN .*src-addr \\S*:" + port + "\\b");
        String[] last = {""};
        server.awaitUntil(() -> {
            last[0] = ResourceShow.listing("cm_id");
            return last[0].lines().anyMatch(l -> listening.matcher(l).find());
        }, () -> "an rdma_cm listener on port " + port + "; rdma resource show cm_id:\n" + last[0] + "\n");
    }

    private static List<String> readLinesIfPresent(Path table) {
        try {
            return Files.readAllLines(table);
        } catch (IOException e) { // the server just ended
            return List.of();
        }
    }
}
