package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.CompletionModeConverter;
import dev.verbs4j.examples.cli.TransportPreferenceConverter;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import picocli.CommandLine.Option;

/**
 * The options {@code mode-bench} and {@code idle-loop} share: how their channels are set up
 * (completion mode, transport, listener address, RDMA device and GID). The spellings are those
 * benchmarks/modes.sh passes.
 */
final class ChannelOptions {
    @Option(names = "--mode", paramLabel = "busy|event|adaptive", converter = CompletionModeConverter.class,
            description = "completion loop mode (default event)")
    CompletionMode mode = CompletionMode.EVENT;

    @Option(names = "--transport", paramLabel = "auto|rdma|tcp|shm", converter = TransportPreferenceConverter.class,
            description = "(default auto)")
    TransportPreference transport = TransportPreference.AUTO;

    @Option(names = "--bind", paramLabel = "ADDR", description = "the listener's address (default 127.0.0.1)")
    String bind = "127.0.0.1";

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "RDMA device (default: the first usable)")
    String device;

    @Option(names = {"-x", "--gid-idx", "--gid-index"}, paramLabel = "INDEX",
            description = "GID index (default: a RoCE v2 IPv4 GID)")
    int gidIndex = -1;
}
