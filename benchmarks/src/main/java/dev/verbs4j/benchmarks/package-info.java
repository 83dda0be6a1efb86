/** JMH benchmarks and the perftest-style CLI. */
package dev.verbs4j.benchmarks;
