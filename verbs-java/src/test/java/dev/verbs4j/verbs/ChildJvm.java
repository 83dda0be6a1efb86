package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs a test class's main in a child JVM in its own empty working directory, so that a crash of
 * the child (its exit status, its hs_err_pid file) is seen from the test. Output goes to a file:
 * a hung child cannot block the test in a pipe read.
 */
record ChildJvm(String output, int exitStatus, List<Path> crashReports) {

    static ChildJvm run(Class<?> main, List<String> jvmOptions, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("verbs4j-child");
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path")));
        command.addAll(jvmOptions);
        command.add(main.getName());
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        child.getOutputStream().close();
        if (!child.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            fail(main.getSimpleName() + " did not finish within " + timeoutSeconds + " s:\n" + Files.readString(log));
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> crashes = files.filter(p -> p.getFileName().toString().startsWith("hs_err_pid")).toList();
            for (Path crash : crashes) {
                System.out.println(Files.readString(crash));
            }
            return new ChildJvm(Files.readString(log), child.exitValue(), crashes);
        }
    }
}
