package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;

/** What {@code verbs4j mode-bench} was asked ({@link ModeBenchCommand}): role, transport, completion mode, size and counts. */
record ModeBenchOptions(boolean server, String host, String bind, int port, TransportPreference transport,
                        CompletionMode mode, boolean appThread, int size, int iterations, int warmup, String device, int gidIndex) {

    /** Both sides can carry the 8-byte control messages whatever the payload size. */
    ChannelConfig config() {
        return ChannelConfig.defaults().transport(transport).mode(mode).maxMessageSize(Math.max(size, 16))
                .device(device).gidIndex(gidIndex);
    }
}
