package dev.verbs4j.nvmf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A test that hangs leaves its threads' stacks behind (printed and in target/{file}), before it
 * fails on its own timeout: started before each test, closed after it.
 */
final class HangWatchdog implements AutoCloseable {
    private final Thread thread;

    HangWatchdog(String test, long seconds, String file) {
        thread = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
            } catch (InterruptedException done) {
                return;
            }
            StringBuilder b = new StringBuilder(test).append(" still running after ").append(seconds).append(" s\n");
            Thread.getAllStackTraces().forEach((t, stack) -> {
                b.append(t).append('\n');
                for (StackTraceElement e : stack) {
                    b.append("    at ").append(e).append('\n');
                }
            });
            System.out.println(b);
            try {
                Files.writeString(Path.of("target", file), b);
            } catch (IOException ignored) {
                // printed above
            }
        });
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
