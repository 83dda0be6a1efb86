package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ibv_reg_mr over RLIMIT_MEMLOCK fails with a message that states the limit and how to raise it.
 * The rig runs as root, and CAP_IPC_LOCK makes the kernel ignore the limit, so a child JVM runs
 * {@link MemlockChild} with a 64 KiB limit (prlimit) and without that capability (setpriv drops
 * it from the bounding and inheritable sets, so the exec'd java never gets it).
 */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MemlockLimitRigTest {

    @Test
    void registrationOverTheLimitExplainsTheLimit() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = List.of("prlimit", "--memlock=65536:65536",
                "setpriv", "--bounding-set=-ipc_lock", "--inh-caps=-ipc_lock",
                java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                MemlockChild.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        child.getOutputStream().close();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!child.waitFor(120, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            fail("the child JVM did not finish:\n" + out);
        }
        System.out.println("child output:\n" + out);
        Map<String, String> report = report(out);

        assertEquals("false", report.get("cap_ipc_lock"), "the child must not have CAP_IPC_LOCK:\n" + out);
        assertEquals("64 KiB (hard 64 KiB)", report.get("memlock"), out);
        assertEquals("registered 16384", report.get("small"), "16 KiB fits under the limit:\n" + out);
        assertEquals("MemoryLockLimitException", report.get("exception"), out);
        assertEquals("ibv_reg_mr", report.get("verb"), out);
        assertEquals("ENOMEM", report.get("errno"), out);
        assertEquals("65536 65536", report.get("limit"), out);
        String message = report.get("message");
        assertTrue(message.contains("RLIMIT_MEMLOCK") && message.contains("64 KiB"), message);
        assertTrue(message.contains("ulimit -l") && message.contains("limits.conf"), message);
        assertEquals("0 kB", report.get("pinned"), "nothing stays pinned after the failure:\n" + out);
        assertEquals("pd and context", report.get("closed"), "the PD and the context close cleanly:\n" + out);
        assertEquals(0, child.exitValue(), out);
    }

    /** "key: value" lines of the child's output; the first occurrence of a key wins. */
    private static Map<String, String> report(String out) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int colon = line.indexOf(": ");
            if (colon > 0 && line.substring(0, colon).matches("[a-z_]+")) {
                m.putIfAbsent(line.substring(0, colon), line.substring(colon + 2).trim());
            }
        }
        return m;
    }
}
