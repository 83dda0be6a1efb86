/**
 * The pvrdma-guest layer's own figures: round-trip latency and CPU time of each completion mode
 * ({@code verbs4j mode-bench}), and the TCP fallback's throughput next to a plain NIO socket loop
 * ({@code verbs4j tcp-vs-nio}). Both print Markdown rows that benchmarks/compare.sh collects.
 */
package dev.verbs4j.benchmarks.modes;
