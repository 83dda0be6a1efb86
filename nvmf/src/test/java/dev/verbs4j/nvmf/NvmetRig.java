package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The rig's nvmet topology (ci/rig --topology nvmet) as the tests see it: the target's address,
 * port and NQN from the environment, and the kernel's own initiator driven through nvme-cli for
 * the cross-checks. Without the topology the tests fail loudly.
 */
final class NvmetRig {
    /** The kernel initiator's host NQN; Java connections use their own. */
    static final String KERNEL_HOSTNQN = "nqn.2014-08.org.nvmexpress:uuid:00000000-0000-0000-0000-0000000ce11d";

    private NvmetRig() {
    }

    static String env(String name) {
        String v = System.getenv(name);
        if (v == null || v.isEmpty()) {
            fail(name + " is not set: these tests run in the rig's nvmet topology (ci/rig run --topology nvmet ...)");
        }
        return v;
    }

    static String address() {
        return env("RIG_ADDR");
    }

    static int port() {
        return Integer.parseInt(env("RIG_NVMET_PORT"));
    }

    static String nqn() {
        return env("RIG_NVMET_NQN");
    }

    static NvmfConnectOptions options() {
        return NvmfConnectOptions.rdma(address(), port(), nqn()).withTimeout(Duration.ofSeconds(20));
    }

    /** Runs a command, returns its stdout; fails the test on a non-zero exit or after 60 s. */
    static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(String.join(" ", command) + ": no exit within 60 s");
            }
            if (p.exitValue() != 0) {
                fail(String.join(" ", command) + ": exit " + p.exitValue() + "\n" + new String(out, StandardCharsets.UTF_8)
                        + new String(err, StandardCharsets.UTF_8));
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command[0], e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static String sh(String script) {
        return run("bash", "-c", script);
    }

    /** nvme connect with the kernel initiator; returns the namespace's block device once it exists. */
    static Path kernelConnect() {
        run("nvme", "connect", "-t", "rdma", "-a", address(), "-s", String.valueOf(port()), "-n", nqn(),
                "-q", KERNEL_HOSTNQN);
        String dev = sh("for i in $(seq 200); do for b in /sys/block/nvme*n*; do "
                + "[[ -e $b && ${b##*/} != *c*n* && $(cat $b/device/subsysnqn 2>/dev/null) == '" + nqn() + "' ]] "
                + "&& { echo /dev/${b##*/}; exit 0; }; done; sleep 0.05; done; exit 1").strip();
        return Path.of(dev);
    }

    static void kernelDisconnect() {
        String out = run("nvme", "disconnect", "-n", nqn());
        if (!out.contains("disconnected 1")) {
            fail("nvme disconnect: " + out);
        }
    }

    /** The kernel's controller device (/dev/nvmeX) behind a namespace block device /dev/nvmeXnY. */
    static String controllerOf(Path blockDevice) {
        String name = blockDevice.getFileName().toString();
        return "/dev/" + name.substring(0, name.lastIndexOf('n'));
    }

    static byte[] readFile(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static void assertSameLines(List<String> expected, List<String> actual) {
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }
}
