package dev.verbs4j.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The converters every verbs4j command uses for {@code --mode} and {@code --transport}: the words
 * the library's parsers take, and for any other word a usage error of one message line (the
 * parser's own words, no exception class, no stack trace) and the pointer to --help, exit 2.
 */
class WordConvertersTest {
    @Command(name = "words")
    static final class Words implements Runnable {
        @Option(names = "--mode", converter = CompletionModeConverter.class)
        CompletionMode mode;

        @Option(names = "--transport", converter = TransportPreferenceConverter.class)
        TransportPreference transport;

        @Override
        public void run() {}
    }

    @Test
    void theWordsTheParsersTakeConvert() {
        Words w = new Words();
        Cli.commandLine(w).parseArgs("--mode", "Busy", "--transport", "rdma");
        assertEquals(CompletionMode.BUSY_POLL, w.mode);
        assertEquals(TransportPreference.RDMA, w.transport);
        Cli.commandLine(w).parseArgs("--mode=adaptive", "--transport=TCP");
        assertEquals(CompletionMode.ADAPTIVE, w.mode);
        assertEquals(TransportPreference.TCP, w.transport);
    }

    @Test
    void aBadModeIsOneLineOfUsageError() {
        assertUsageError("Invalid value for option '--mode': mode must be busy, event or adaptive, got 'fast'",
                "--mode", "fast");
        assertUsageError("Invalid value for option '--mode': mode must be busy, event or adaptive, got ''",
                "--mode=");
    }

    @Test
    void aBadTransportIsOneLineOfUsageError() {
        assertUsageError("Invalid value for option '--transport': transport must be auto, rdma, tcp or shm, got 'udp'",
                "--transport", "udp");
        assertUsageError("Invalid value for option '--transport': transport must be auto, rdma, tcp or shm, got ' '",
                "--transport", " ");
    }

    private static void assertUsageError(String message, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(new Words());
        cl.setErr(new PrintWriter(err, true));
        assertEquals(Cli.USAGE_ERROR, cl.execute(args), String.join(" ", args));
        assertEquals("verbs4j words: " + message + System.lineSeparator()
                + "Try 'verbs4j words --help' for more information." + System.lineSeparator(), err.toString());
    }
}
