package dev.verbs4j.examples;

import dev.verbs4j.verbs.CmConnectionParameters;
import dev.verbs4j.verbs.CmEventChannel;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CmPortSpace;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;

/**
 * rping's client: per ping, fill the start buffer, advertise it, wait for the server's go-ahead,
 * advertise the sink buffer, wait again, then compare (-V) and print (-v) what came back.
 */
final class RpingClient {
    /** rping's address and route resolution timeouts. */
    private static final Duration RESOLVE_TIMEOUT = Duration.ofMillis(2000);

    private final RpingOptions o;
    private final PrintStream out;
    private final Duration timeout;

    RpingClient(RpingOptions o, PrintStream out) {
        this.o = o;
        this.out = out;
        this.timeout = Duration.ofSeconds(o.timeoutSeconds);
    }

    int run() throws Exception {
        try (CmEventChannel channel = CmEventChannel.create();
             CmId id = channel.createId(CmPortSpace.TCP)) {
            InetSocketAddress source = o.sourceAddress == null ? null : new InetSocketAddress(o.sourceAddress, 0);
            id.resolveAddress(source, new InetSocketAddress(o.address, o.port), RESOLVE_TIMEOUT);
            id.resolveRoute(RESOLVE_TIMEOUT);
            try (RpingEndpoint end = new RpingEndpoint(id, o.size, true, timeout)) {
                id.connect(CmConnectionParameters.defaults(), timeout);
                try {
                    return ping(end);
                } catch (RpingEndpoint.Disconnected e) {
                    System.err.println("client DISCONNECT EVENT...");
                    return 0;
                } finally {
                    try {
                        id.startDisconnect();
                    } catch (RuntimeException alreadyGone) {
                        // the server went first
                    }
                }
            }
        }
    }

    private int ping(RpingEndpoint end) throws Exception {
        MemorySegment start = end.startBuffer();
        MemorySegment sink = end.rdmaBuffer();
        for (int ping = 0; o.count == 0 || ping < o.count; ping++) {
            byte[] data = RpingMessages.pingData(ping, o.size);
            MemorySegment.copy(data, 0, start, ValueLayout.JAVA_BYTE, 0, o.size);
            end.sendInfo(end.advertise(end.startMr));
            end.awaitReceive();
            end.sendInfo(end.advertise(end.rdmaMr));
            end.awaitReceive();
            byte[] back = sink.asSlice(0, o.size).toArray(ValueLayout.JAVA_BYTE);
            if (o.validate && !Arrays.equals(data, back)) {
                System.err.println("data mismatch!");
                return 1;
            }
            if (o.verbose) {
                out.println("ping data: " + RpingMessages.cString(back));
            }
        }
        out.flush();
        return 0;
    }
}
