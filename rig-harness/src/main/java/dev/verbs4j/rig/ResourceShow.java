package dev.verbs4j.rig;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The kernel's own count of RDMA objects, from iproute2's {@code rdma resource show}. */
public final class ResourceShow {
    private static final Pattern COUNT = Pattern.compile("(\\w+) (\\d+)");

    private ResourceShow() {}

    /** The one-line-per-device summary, e.g. {@code 0: rxe0: pd 1 cq 1 qp 1 cm_id 0 mr 0 ctx 0 srq 0}. */
    public static String summary() {
        return Commands.run("rdma", "resource", "show").strip();
    }

    /** {@code rdma resource show TYPE}: one line per object of that type (pd, cq, qp, mr, cm_id...). */
    public static String listing(String type) {
        return Commands.run("rdma", "resource", "show", type);
    }

    /** The counts of one device, e.g. {pd=1, cq=0, qp=1, cm_id=0, mr=0, ctx=0, srq=0}. */
    public static Map<String, Integer> counts(String device) {
        return counts(summary(), device);
    }

    /** The counts of {@code device} in a summary as {@link #summary} returns it. */
    public static Map<String, Integer> counts(String summary, String device) {
        for (String line : summary.split("\n")) {
            // "0: rxe0: pd 1 cq 2 qp 1 cm_id 0 mr 0 ctx 0 srq 0"
            String[] parts = line.split(":", 3);
            if (parts.length == 3 && parts[1].trim().equals(device)) {
                Map<String, Integer> counts = new LinkedHashMap<>();
                Matcher m = COUNT.matcher(parts[2]);
                while (m.find()) {
                    counts.put(m.group(1), Integer.parseInt(m.group(2)));
                }
                return counts;
            }
        }
        throw new AssertionError("device " + device + " not in 'rdma resource show':\n" + summary);
    }
}
