/**
 * The command-line conventions of every program behind {@code bin/verbs4j}: picocli parsing with
 * GNU spellings, {@code verbs4j NAME} in usage and messages, exit status 2 for a usage error and 1
 * for a failure, {@code -v}/{@code -vv} for the library's log on stderr, and the one set of
 * converters for the library's words ({@code --mode}, {@code --transport}) that examples,
 * benchmarks and cli all use.
 */
package dev.verbs4j.examples.cli;
