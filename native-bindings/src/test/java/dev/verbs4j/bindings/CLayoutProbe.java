package dev.verbs4j.bindings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Asks the C compiler for the true value of each {@link LayoutFact}: writes a C program that
 * prints every expression, compiles it with gcc against the installed rdma-core headers and runs it.
 */
final class CLayoutProbe {

    static final String INSTALL_HINT =
            "the layout check needs a C compiler and the rdma-core headers: apt-get install gcc libibverbs-dev librdmacm-dev";

    private static final String HEADERS = """
            #include <stddef.h>
            #include <stdio.h>
            #include <pthread.h>
            #include <time.h>
            #include <sys/socket.h>
            #include <netinet/in.h>
            #include <infiniband/verbs.h>
            #include <infiniband/sa.h>
            #include <rdma/rdma_cma.h>
            """;

    private CLayoutProbe() {
    }

    /** Returns C's value for every fact's expression, keyed by the expression text. */
    static Map<String, Long> evaluate(List<LayoutFact> facts, Path workDir) throws IOException, InterruptedException {
        Path source = workDir.resolve("layout_probe.c");
        Path executable = workDir.resolve("layout_probe");
        Files.writeString(source, program(facts));
        run(List.of("gcc", "-std=gnu11", "-O0", "-o", executable.toString(), source.toString()), "gcc");
        String output = run(List.of(executable.toString()), "the compiled layout probe");

        Map<String, Long> values = new HashMap<>();
        for (String line : output.split("\n")) {
            int tab = line.lastIndexOf('\t');
            if (tab > 0) {
                values.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
            }
        }
        return values;
    }

    static String program(List<LayoutFact> facts) {
        StringBuilder c = new StringBuilder(HEADERS).append("\nint main(void) {\n");
        for (LayoutFact fact : facts) {
            // Expressions contain only identifiers and punctuation, so they are safe inside a string literal.
            c.append("    printf(\"%s\\t%zu\\n\", \"").append(fact.cExpression()).append("\", (size_t) (")
                    .append(fact.cExpression()).append("));\n");
        }
        return c.append("    return 0;\n}\n").toString();
    }

    private static String run(List<String> command, String what) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("cannot start " + what + " (" + e.getMessage() + "); " + INSTALL_HINT, e);
        }
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(what + " did not finish within 120 s");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new AssertionError(what + " failed with exit code " + process.exitValue() + "; " + INSTALL_HINT
                    + "\n" + firstLines(text, 40));
        }
        return text;
    }

    private static String firstLines(String text, int count) {
        return String.join("\n", text.lines().limit(count).toList());
    }
}
