package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The options {@code mode-bench} and {@code idle-loop} share: how their channels are set up
 * (completion mode, transport, listener address, RDMA device and GID). The spellings are those
 * benchmarks/modes.sh passes.
 */
final class ChannelOptions {
    @Option(names = "--mode", paramLabel = "busy|event|adaptive", converter = ModeConverter.class,
            description = "completion loop mode (default event)")
    CompletionMode mode = CompletionMode.EVENT;

    @Option(names = "--transport", paramLabel = "auto|rdma|tcp|shm", converter = TransportConverter.class,
            description = "(default auto)")
    TransportPreference transport = TransportPreference.AUTO;

    @Option(names = "--bind", paramLabel = "ADDR", description = "the listener's address (default 127.0.0.1)")
    String bind = "127.0.0.1";

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "RDMA device (default: the first usable)")
    String device;

    @Option(names = {"-x", "--gid-idx", "--gid-index"}, paramLabel = "INDEX",
            description = "GID index (default: a RoCE v2 IPv4 GID)")
    int gidIndex = -1;

    /** {@code --mode}'s values as {@link CompletionMode#parse} reads them; a bad one is a usage error. */
    static final class ModeConverter implements ITypeConverter<CompletionMode> {
        @Override
        public CompletionMode convert(String value) {
            try {
                return CompletionMode.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code --transport}'s values as {@link TransportPreference#parse} reads them. */
    static final class TransportConverter implements ITypeConverter<TransportPreference> {
        @Override
        public TransportPreference convert(String value) {
            try {
                return TransportPreference.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
