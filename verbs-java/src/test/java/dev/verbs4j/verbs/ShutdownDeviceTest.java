package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A JVM that exits while threads post and poll on open verbs objects ends normally (no hs_err). */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShutdownDeviceTest {

    @Test
    void exitWithObjectsOpenWhileAnotherThreadPolls() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("verbs4j-shutdown");
        String java = ProcessHandle.current().info().command().orElseThrow();
        for (int run = 0; run < 3; run++) {
            List<String> command = List.of(java, "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), ShutdownChild.class.getName());
            Process child = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            child.getOutputStream().close();
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!child.waitFor(120, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                fail("the child JVM did not exit:\n" + out);
            }
            assertTrue(out.contains("exiting with the verbs objects open"), out);
            assertEquals(0, child.exitValue(), "exit status of a JVM leaving verbs objects open:\n" + out);
            try (Stream<Path> files = Files.list(dir)) {
                List<Path> crashes = files.filter(p -> p.getFileName().toString().startsWith("hs_err")).toList();
                assertTrue(crashes.isEmpty(), "the child crashed: " + crashes);
            }
        }
    }
}
