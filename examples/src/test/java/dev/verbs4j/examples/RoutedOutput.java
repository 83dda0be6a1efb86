package dev.verbs4j.examples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Gives each program run on threads of the test JVM its own stdout and stderr. Once installed,
 * System.out and System.err write to the buffers of the program whose thread is writing (the
 * threads a program starts inherit them), and through to the test's own streams on every other
 * thread. The programs print with System.out as they do in their own process.
 */
final class RoutedOutput {
    /** What one program printed. */
    record Buffers(ByteArrayOutputStream out, ByteArrayOutputStream err) {
        static Buffers fresh() {
            return new Buffers(new ByteArrayOutputStream(), new ByteArrayOutputStream());
        }

        String stdout() {
            return out.toString(StandardCharsets.UTF_8);
        }

        String stderr() {
            return err.toString(StandardCharsets.UTF_8);
        }
    }

    private static final InheritableThreadLocal<Buffers> CURRENT = new InheritableThreadLocal<>();
    private static boolean installed;

    private RoutedOutput() {}

    /** Routes the calling thread's output, and that of the threads it starts from now on, to {@code buffers}. */
    static void routeTo(Buffers buffers) {
        install();
        CURRENT.set(buffers);
    }

    private static synchronized void install() {
        if (!installed) {
            System.setOut(new PrintStream(new Router(System.out, false), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new Router(System.err, true), true, StandardCharsets.UTF_8));
            installed = true;
        }
    }

    /** Writes to the current program's buffer, or to the stream it replaced. */
    private static final class Router extends OutputStream {
        private final PrintStream original;
        private final boolean err;

        Router(PrintStream original, boolean err) {
            this.original = original;
            this.err = err;
        }

        private OutputStream target() {
            Buffers b = CURRENT.get();
            return b == null ? original : err ? b.err() : b.out();
        }

        @Override
        public void write(int b) throws IOException {
            target().write(b);
        }

        @Override
        public void write(byte[] bytes, int off, int len) throws IOException {
            target().write(bytes, off, len);
        }

        @Override
        public void flush() {
            original.flush();
        }
    }
}
