package dev.verbs4j.benchmarks.netty;

import dev.verbs4j.loop.CompletionMode;
import io.netty.buffer.ByteBuf;

/** An {@link EchoPair} for the JMH suite, which lives in another package. */
public final class EchoPairHandle implements AutoCloseable {
    private final EchoPair pair;

    private EchoPairHandle(EchoPair pair) {
        this.pair = pair;
    }

    /** An echo pair over {@code transport} ("nio", "verbs4j-rdma", "verbs4j-tcp") on {@code address}. */
    public static EchoPairHandle open(String transport, CompletionMode mode, String address) throws Exception {
        return new EchoPairHandle(new EchoPair(NettyTransport.parse(transport, mode), address, true));
    }

    /** {@code count} round trips of {@code request}, one after the other. */
    public void roundTrips(ByteBuf request, int count) throws Exception {
        pair.roundTrips(request, count, null, 0);
    }

    @Override
    public void close() {
        pair.close();
    }
}
