package dev.verbs4j.examples;

import dev.verbs4j.verbs.CmConnectionParameters;
import dev.verbs4j.verbs.CmEvent;
import dev.verbs4j.verbs.CmEventChannel;
import dev.verbs4j.verbs.CmEventType;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CmPortSpace;
import java.io.PrintStream;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * rping's server: for each ping, RDMA-READ the client's start buffer, say "go ahead", RDMA-WRITE
 * the data back into the client's sink buffer, say "go ahead" again; until the client disconnects.
 * With -P it serves one client after another (the C server serves them in parallel threads).
 */
final class RpingServer {
    private final RpingOptions o;
    private final PrintStream out;
    private final Duration timeout;

    RpingServer(RpingOptions o, PrintStream out) {
        this.o = o;
        this.out = out;
        this.timeout = Duration.ofSeconds(o.timeoutSeconds);
    }

    int run() throws Exception {
        try (CmEventChannel channel = CmEventChannel.create();
             CmId listener = channel.createId(CmPortSpace.TCP)) {
            InetAddress bindTo = o.address != null ? o.address : InetAddress.getByName("0.0.0.0");
            listener.bind(new InetSocketAddress(bindTo, o.port));
            listener.listen(3);
            do {
                CmEvent request = awaitRequest(listener);
                int rc = serve(request.id());
                if (!o.persistent) {
                    return rc;
                }
            } while (true);
        }
    }

    /** Like the C server, waits for a client as long as it takes (in bounded slices). */
    private CmEvent awaitRequest(CmId listener) {
        while (true) {
            CmEvent event = listener.nextEvent(Duration.ofSeconds(5));
            if (event == null) {
                continue;
            }
            if (event.type() == CmEventType.CONNECT_REQUEST) {
                return event;
            }
            if (event.type().isFailure()) {
                throw new IllegalStateException("cma event " + event.describe());
            }
        }
    }

    private int serve(CmId child) throws Exception {
        try (child; RpingEndpoint end = new RpingEndpoint(child, o.size, false, timeout)) {
            child.accept(CmConnectionParameters.defaults(), timeout);
            try {
                while (true) {
                    RpingMessages.BufferInfo source = end.awaitReceive();
                    if (source.size() > o.size || source.size() < 1) {
                        throw new IllegalStateException("the client advertised " + source.size()
                                + " bytes to read, but this server's -S is " + o.size + " (use the same -S)");
                    }
                    end.read(source, source.size());
                    end.awaitRead();
                    byte[] data = end.rdmaBuffer().asSlice(0, o.size).toArray(ValueLayout.JAVA_BYTE);
                    if (o.verbose) {
                        out.println("server ping data: " + RpingMessages.cString(data));
                        out.flush();
                    }
                    end.sendGoAhead();
                    RpingMessages.BufferInfo sink = end.awaitReceive();
                    int length = RpingMessages.echoLength(data);
                    if (length > sink.size()) {
                        throw new IllegalStateException("the client's sink buffer (" + sink.size()
                                + " bytes) is smaller than the ping data (" + length + ")");
                    }
                    end.write(sink, length);
                    end.awaitWrite();
                    end.sendGoAhead();
                }
            } catch (RpingEndpoint.Disconnected normalEnd) {
                System.err.println("server DISCONNECT EVENT...");
                return 0;
            } finally {
                try {
                    child.startDisconnect();
                } catch (RuntimeException alreadyGone) {
                    // the client disconnected first: nothing left to tear down
                }
            }
        }
    }
}
