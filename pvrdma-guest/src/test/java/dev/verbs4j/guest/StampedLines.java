package dev.verbs4j.guest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A child process's output read on a thread of its own as it comes (the pipe never fills), each
 * line stamped with the {@link System#nanoTime()} it was read at: a test that waits for a line
 * learns of it within the pipe's delay, not a poll's, and knows afterwards what came before a
 * given moment.
 */
final class StampedLines {
    record Line(String text, long at) {}

    private final List<Line> lines = new ArrayList<>();
    private boolean ended;

    StampedLines(InputStream output, String threadName) {
        Thread.ofPlatform().daemon().name(threadName).start(() -> read(output));
    }

    private void read(InputStream output) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
            for (String text; (text = in.readLine()) != null; ) {
                Line line = new Line(text, System.nanoTime());
                synchronized (this) {
                    lines.add(line);
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // the process is gone: its output ends here
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    /** The first line equal to {@code text}; null when the output ended or {@code deadline} (nanoTime) passed first. */
    synchronized Line await(String text, long deadline) throws InterruptedException {
        for (int seen = 0; ; ) {
            for (; seen < lines.size(); seen++) {
                if (lines.get(seen).text().equals(text)) {
                    return lines.get(seen);
                }
            }
            long left = deadline - System.nanoTime();
            if (ended || left <= 0) {
                return null;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** The first line equal to {@code text} read so far, or null. */
    synchronized Line find(String text) {
        return lines.stream().filter(l -> l.text().equals(text)).findFirst().orElse(null);
    }

    /** The last line starting with {@code prefix} that was read before {@code moment}, or null. */
    synchronized Line lastBefore(String prefix, long moment) {
        Line last = null;
        for (Line line : lines) {
            if (line.at() < moment && line.text().startsWith(prefix)) {
                last = line;
            }
        }
        return last;
    }

    /** Every line starting with {@code prefix} so far, in order. */
    synchronized List<Line> starting(String prefix) {
        return lines.stream().filter(l -> l.text().startsWith(prefix)).toList();
    }

    /** Waits until the output has ended (the process is gone and the pipe drained), at most until {@code deadline}. */
    synchronized boolean awaitEnd(long deadline) throws InterruptedException {
        while (!ended) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    /** Everything read so far, for a failure's message. */
    synchronized String text() {
        StringBuilder all = new StringBuilder();
        lines.forEach(l -> all.append(l.text()).append('\n'));
        return all.toString();
    }
}
