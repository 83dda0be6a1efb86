package dev.verbs4j.benchmarks.modes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code verbs4j shm-vs-tcp} with tiny counts: every path's row and the two idle rows, well formed (no timing checked). */
class ShmVsTcpSmokeTest {
    private static final String NUMBER = "\\d+(\\.\\d+)?";

    @Test
    void printsARowPerPathThenTheIdleShmChannelsRows() throws Exception {
        ShmVsTcpCommand command = new ShmVsTcpCommand();
        Cli.commandLine(command).parseArgs("-s", "64", "-n", "200", "--rtt-iters", "50", "--warmup", "0",
                "--idle-seconds", "1");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ShmVsTcpBench.run(command.options(), new PrintStream(bytes, true));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        String all = String.join("\n", lines);
        assertEquals(14, lines.size(), all);
        assertEquals(ShmVsTcpBench.HEADER, lines.get(0) + "\n" + lines.get(1), all);
        for (String path : List.of("shm busy", "shm event", "shm adaptive", "tcp channel busy", "tcp channel event",
                "plain NIO")) {
            String row = "\\| 64 \\| " + path + " \\| (" + NUMBER + " \\| ){2}" + NUMBER + " \\|";
            assertTrue(lines.stream().anyMatch(l -> l.matches(row)), path + " in\n" + all);
        }
        assertEquals(ShmVsTcpBench.IDLE_HEADER, lines.get(10) + "\n" + lines.get(11), all);
        String pair = NUMBER + " / " + NUMBER;
        for (int receiving = 0; receiving <= 1; receiving++) {
            String row = lines.get(12 + receiving);
            assertTrue(row.matches("\\| shm event \\| 1 \\| " + receiving + " \\| " + pair + " \\| " + pair + " \\| "
                    + NUMBER + " \\|"), row);
        }
    }
}
