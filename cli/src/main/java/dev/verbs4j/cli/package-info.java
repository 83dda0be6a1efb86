/**
 * {@code verbs4j}, the top-level command: one picocli model of every program behind
 * {@code bin/verbs4j} (the examples' and the benchmarks' commands), from which the top-level
 * {@code --help}, the bash completion script and the man pages are made, so they list exactly what
 * the launcher runs. {@code bin/verbs4j SUBCOMMAND} itself starts each program's own main.
 *
 * <pre>
 *  Verbs4jCommand.commandLine()
 *    +-- ExampleCommands.all()     the examples' programs (devices, pingpong, doctor, ...)
 *    +-- BenchmarkCommands.all()   the benchmarks' (perf, mode-bench, ...)
 *  CliDocs.main(target/)  -&gt;  verbs4j_completion, man/verbs4j*.adoc    (at build time)
 * </pre>
 */
package dev.verbs4j.cli;
