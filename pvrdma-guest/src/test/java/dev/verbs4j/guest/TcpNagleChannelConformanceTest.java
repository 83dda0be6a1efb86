package dev.verbs4j.guest;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.loop.CompletionLoop;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite on TCP with Nagle on at both ends ({@code tcpNoDelay(false)}): packing
 * small frames into larger segments must not change what arrives, or when a channel ends.
 */
@ParameterizedClass
@EnumSource(CompletionMode.class)
class TcpNagleChannelConformanceTest extends TcpChannelConformanceTest {
    @Override
    ChannelConfig config(CompletionLoop loop) {
        return super.config(loop).tcpNoDelay(false);
    }
}
