package dev.verbs4j.guest.rdma;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.PortAttributes;
import dev.verbs4j.verbs.WcStatus;

/**
 * What a failed completion says about the channel. A link that went down is named as such,
 * whatever status the device gave the requests it failed: an adapter keeps resending until
 * RETRY_EXC_ERR, soft-RoCE fails the request at once with no route to the peer and flushes the
 * rest. A flush with nothing failed before it says only that the queue pair is in the error
 * state; the request that put it there, if it was ours, completes after the flushed receives.
 */
final class FailedCompletion {
    private final Context context;
    private final int port;

    FailedCompletion(Context context, int port) {
        this.context = context;
        this.port = port;
    }

    /** The channel's error for a completion that failed with {@code status}. */
    ChannelException cause(WcStatus status, int vendorError) {
        return switch (status) {
            case REM_ACCESS_ERR -> new ChannelException(ChannelError.REMOTE_ACCESS,
                    "the peer refused the access (unknown key or outside its region)");
            case LOC_LEN_ERR, REM_INV_REQ_ERR -> new ChannelException(ChannelError.LOCAL_LENGTH,
                    "length error (" + status + ")");
            case RETRY_EXC_ERR, RNR_RETRY_EXC_ERR -> orLinkDown(new ChannelException(ChannelError.PEER_LOST,
                    "the peer stopped answering (" + status + ")"));
            case WR_FLUSH_ERR -> flushed();
            default -> orLinkDown(new ChannelException(ChannelError.TRANSPORT, "completion error " + status
                    + " (vendor error 0x" + Integer.toHexString(vendorError) + ")"));
        };
    }

    /** The queue pair went to the error state with no failed request of this side's to say why. */
    ChannelException flushed() {
        return orLinkDown(new ChannelException(ChannelError.TRANSPORT,
                "the queue pair went to the error state with no failed request of its own (work requests flushed)"));
    }

    /** PEER_LOST naming the port if it is still not active after {@code timeout}, else null. */
    ChannelException linkDownFor(java.time.Duration timeout) {
        PortAttributes attributes = port();
        return attributes == null || attributes.isActive() ? null : new ChannelException(ChannelError.PEER_LOST,
                "the link went down and stayed down for " + timeout.toMillis() + " ms, the peer-loss timeout: port "
                        + port + " of " + context.name() + " is " + attributes.stateName());
    }

    /** The port's attributes, or null when they cannot be read. */
    private PortAttributes port() {
        try {
            return context.queryPort(port);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private ChannelException orLinkDown(ChannelException otherwise) {
        PortAttributes attributes = port();
        if (attributes == null || attributes.isActive()) {
            return otherwise;
        }
        return new ChannelException(ChannelError.PEER_LOST, "the link went down: port " + port + " of "
                + context.name() + " is " + attributes.stateName() + " (" + otherwise.getMessage() + ")");
    }
}
