package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shared set-up of the tests that need a real RDMA device. They run inside the soft-RoCE rig
 * (ci/rig), which exports RIG_DEVICE, RIG_GID_INDEX and RIG_ADDR. Finding no device there is a
 * failure, never a skip.
 */
public final class RdmaTestSupport {
    private static final Pattern COUNT = Pattern.compile("(\\w+) (\\d+)");

    private RdmaTestSupport() {}

    /** The device the rig created for the tests (rxe0 unless RIG_DEVICE says otherwise). */
    public static String deviceName() {
        return System.getenv().getOrDefault("RIG_DEVICE", "rxe0");
    }

    /** rxe0's IPv4 address inside the rig. */
    public static String deviceAddress() {
        String addr = System.getenv("RIG_ADDR");
        if (addr == null) {
            fail("RIG_ADDR is not set: device tests run inside the soft-RoCE rig (ci/rig run ...)");
        }
        return addr;
    }

    /** Opens the rig's device, failing loudly when there is none. */
    public static Context openDevice() {
        List<DeviceInfo> devices = Verbs.devices();
        if (devices.isEmpty()) {
            fail("no RDMA device visible: the tests tagged 'rdma' must run inside the soft-RoCE rig "
                    + "(ci/rig run mvn -o -P rig surefire:test); the rig is not up");
        }
        String name = deviceName();
        if (devices.stream().noneMatch(d -> d.name().equals(name))) {
            fail("device " + name + " not found; present: " + devices);
        }
        return Verbs.open(name);
    }

    /**
     * Resource counts of a device from iproute2's {@code rdma resource show}, e.g.
     * {pd=1, cq=0, qp=1, cm_id=0, mr=0, ctx=0, srq=0}.
     */
    public static Map<String, Integer> resourceCounts(String device) {
        String out = run("rdma", "resource", "show");
        for (String line : out.split("\n")) {
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
        throw new AssertionError("device " + device + " not in 'rdma resource show':\n" + out);
    }

    static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " failed:\n" + out);
            }
            return out;
        } catch (IOException e) {
            throw new AssertionError("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
