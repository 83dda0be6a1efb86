package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.rig.Commands;
import dev.verbs4j.rig.RigEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The rig's nvmet topology (ci/rig --topology nvmet) as the nvmf tests use it, on top of the rig
 * harness (dev.verbs4j.rig, which fails the test outside the topology): connect options for the
 * target, and the kernel's own initiator driven through nvme-cli for the cross-checks.
 */
final class NvmetRig {
    /** The kernel initiator's host NQN; Java connections use their own. */
    static final String KERNEL_HOSTNQN = "nqn.2014-08.org.nvmexpress:uuid:00000000-0000-0000-0000-0000000ce11d";

    private NvmetRig() {
    }

    static String address() {
        return RigEnvironment.current().address();
    }

    static int port() {
        return RigEnvironment.current().nvmetPort();
    }

    static String nqn() {
        return RigEnvironment.current().nvmetNqn();
    }

    static NvmfConnectOptions options() {
        return NvmfConnectOptions.rdma(address(), port(), nqn()).withTimeout(Duration.ofSeconds(20));
    }

    /** The target's port 2, across the veth pair from rxe2's address. */
    static NvmfConnectOptions linkOptions() {
        RigEnvironment rig = RigEnvironment.current();
        return NvmfConnectOptions.rdma(rig.nvmetLinkAddress(), port(), nqn()).withHostAddress(rig.nvmetLinkHostAddress())
                .withTimeout(Duration.ofSeconds(20));
    }

    /** nvme connect with the kernel initiator; returns the namespace's block device once it exists. */
    static Path kernelConnect() {
        Commands.run("nvme", "connect", "-t", "rdma", "-a", address(), "-s", String.valueOf(port()), "-n", nqn(),
                "-q", KERNEL_HOSTNQN);
        String dev = Commands.sh("for i in $(seq 200); do for b in /sys/block/nvme*n*; do "
                + "[[ -e $b && ${b##*/} != *c*n* && $(cat $b/device/subsysnqn 2>/dev/null) == '" + nqn() + "' ]] "
                + "&& { echo /dev/${b##*/}; exit 0; }; done; sleep 0.05; done; exit 1").strip();
        return Path.of(dev);
    }

    static void kernelDisconnect() {
        String out = Commands.run("nvme", "disconnect", "-n", nqn());
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
