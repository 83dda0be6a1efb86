package dev.verbs4j.examples.nvmf;

import picocli.CommandLine.Option;

/** {@code -N/--namespace-id}, as nvme-cli's I/O commands take it. */
final class NamespaceOption {
    @Option(names = {"-N", "--namespace-id"}, defaultValue = "1", description = "namespace (default ${DEFAULT-VALUE})")
    int nsid;
}
