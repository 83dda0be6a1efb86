package dev.verbs4j.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Writes, at build time, the bash completion script ({@code verbs4j_completion}) and one man page
 * per command in AsciiDoc ({@code man/verbs4j.adoc}, {@code man/verbs4j-perf.adoc}, ...), from the
 * same command model that parses the command lines, so they cannot drift.
 */
public final class CliDocs {
    private CliDocs() {}

    /**
     * Writes the completion script and the man pages; run by the build (exec-maven-plugin).
     *
     * @param args one argument: the output directory (the module's target/)
     * @throws IOException when a file cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        CommandLine top = Verbs4jCommand.commandLine();
        Files.writeString(out.resolve("verbs4j_completion"), AutoComplete.bash("verbs4j", top), StandardCharsets.UTF_8);
        Path man = Files.createDirectories(out.resolve("man"));
        writeManPage(man.resolve("verbs4j.adoc"), top);
        for (CommandLine sub : top.getSubcommands().values()) {
            writeManPage(man.resolve("verbs4j-" + sub.getCommandName() + ".adoc"), sub);
        }
    }

    private static void writeManPage(Path file, CommandLine command) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            ManPageGenerator.writeSingleManPage(w, command.getCommandSpec());
        }
    }
}
