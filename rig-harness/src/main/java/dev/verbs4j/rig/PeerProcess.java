package dev.verbs4j.rig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A program started as a process, its output going to files (no pipe can fill up and stall it).
 * Ending it ends its whole process tree; a JVM that hangs has its threads printed first.
 */
public final class PeerProcess extends Peer {
    private final Process process;
    private final Path out;
    private final Path err;
    private PeerResult result;

    private PeerProcess(String name, Process process, Path out, Path err) {
        super(name);
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** How much of the name goes into the output files' names. */
    private static final int MAX_PREFIX = 100;

    /** Starts {@code command}; its output goes to temporary files. */
    public static PeerProcess start(String name, List<String> command) throws IOException {
        return start(name, new ProcessBuilder(command));
    }

    /** Starts what {@code builder} describes (its environment and directory); output is redirected here. */
    public static PeerProcess start(String name, ProcessBuilder builder) throws IOException {
        String prefix = "rig-" + name.replaceAll("\\W", "_");
        if (prefix.length() > MAX_PREFIX) { // a whole command line in the name outgrows a file name's 255 bytes
            prefix = prefix.substring(0, MAX_PREFIX);
        }
        Path out = Files.createTempFile(prefix, ".out");
        Path err = Files.createTempFile(prefix, ".err");
        try {
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            process.getOutputStream().close(); // no peer reads stdin: EOF rather than a wait
            return new PeerProcess(name, process, out, err);
        } catch (IOException e) {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            throw e;
        }
    }

    /** Waits at most {@code seconds}; ends the process tree when it takes longer. The same result every call. */
    @Override
    public synchronized PeerResult await(long seconds) throws InterruptedException {
        if (result != null) {
            return result;
        }
        boolean finished = process.waitFor(seconds, TimeUnit.SECONDS);
        String threads = "";
        if (!finished) {
            threads = threadDumpIfJava();
            kill();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        result = new PeerResult(name(), finished ? process.exitValue() : -1, !finished, read(out),
                read(err) + threads);
        deleteOutput();
        return result;
    }

    /** Where a hung Java program stands (bin/verbs4j execs java, so the pid is the JVM's). */
    private String threadDumpIfJava() {
        boolean java = process.info().command().map(c -> c.endsWith("/java")).orElse(false);
        if (!java) {
            return "";
        }
        try {
            Process jcmd = new ProcessBuilder("timeout", "30", "jcmd", Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            String dump = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor(35, TimeUnit.SECONDS);
            return "\n--- threads of the hung program\n" + dump;
        } catch (IOException e) {
            return "\n--- no thread dump: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "\n--- no thread dump: interrupted";
        }
    }

    @Override
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public synchronized String stdoutSoFar() {
        return result != null ? result.stdout() : read(out);
    }

    /** Ends the process tree if it still runs, and removes its output files. */
    @Override
    public void close() {
        super.close();
        if (result == null) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            deleteOutput();
        }
    }

    private void deleteOutput() {
        try {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        } catch (IOException leftInTmp) {
            // a temporary file; /tmp is cleared with the rig's guest
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
