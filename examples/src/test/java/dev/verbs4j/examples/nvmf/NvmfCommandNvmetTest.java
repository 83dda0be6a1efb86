package dev.verbs4j.examples.nvmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.rig.RigEnvironment;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code verbs4j nvmf} against the rig's nvmet target: write a file, read it back, discover, identify, a bad LBA. */
@Tag("rdma-nvmet")
class NvmfCommandNvmetTest {
    private static final RigEnvironment RIG = RigEnvironment.current();

    private record Run(int exit, String out, String err) {
    }

    private static Run nvmf(String... args) {
        String[] connection = {"-t", "rdma", "-a", RIG.address(), "-s", String.valueOf(RIG.nvmetPort()), "-n",
                RIG.nvmetNqn()};
        String[] all = new String[args.length + connection.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(connection, 0, all, args.length, connection.length);
        PrintStream stdout = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            var cl = NvmfCommand.commandLine();
            cl.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
            int exit = cl.execute(all);
            return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
        }
    }

    @Test
    void writeThenReadBackAFile() throws Exception {
        byte[] data = new byte[10_000];                   // not a whole number of blocks: zero-padded
        new Random(4).nextBytes(data);
        Path in = Files.createTempFile("nvmf-in", ".bin");
        Path out = Files.createTempFile("nvmf-out", ".bin");
        Files.write(in, data);
        Run w = nvmf("write", "--start-block", "30000", "--data", in.toString());
        assertEquals(0, w.exit(), w.err());
        Run r = nvmf("read", "--start-block", "30000", "--block-count", "20", "--data", out.toString());
        assertEquals(0, r.exit(), r.err());
        byte[] back = Files.readAllBytes(out);
        assertEquals(20 * 512, back.length);
        assertArrayEquals(data, java.util.Arrays.copyOf(back, data.length));
        assertArrayEquals(new byte[back.length - data.length], java.util.Arrays.copyOfRange(back, data.length, back.length));
    }

    @Test
    void discoverAndIdentifyPrintTheSubsystem() {
        Run d = nvmf("discover");
        assertEquals(0, d.exit(), d.err());
        assertTrue(d.out().contains("subnqn:  " + RIG.nvmetNqn()), d.out());
        assertTrue(d.out().contains("trsvcid: 4420"), d.out());
        Run i = nvmf("identify");
        assertEquals(0, i.exit(), i.err());
        assertTrue(i.out().contains("subnqn  : " + RIG.nvmetNqn()), i.out());
        assertTrue(i.out().contains("lba size: 512"), i.out());
    }

    @Test
    void anLbaPastTheEndIsOneLineAndExitOne() {
        Run r = nvmf("read", "--start-block", "999999999", "--block-count", "1", "--data", "/dev/null");
        assertEquals(1, r.exit());
        // refused before it is sent: nvmet on 6.1 would answer Internal Error, not LBA Out of Range
        assertTrue(r.err().matches("nvmf read: Read: LBA out of range \\(SCT 0, SC 0x80, do not retry\\): blocks "
                + "999999999\\.\\.999999999 \\(count 1\\) are not all inside namespace 1, which has 524288 blocks "
                + "\\(0\\.\\.524287\\) of 512 bytes; not sent to the target\\R?"), r.err());
    }
}
