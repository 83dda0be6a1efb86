package dev.verbs4j.guest;

/** A channel operation failed; {@link #error()} says how, the same way on both transports. */
public class ChannelException extends RuntimeException {
    /** What kind of failure. */
    private final ChannelError error;

    /**
     * A failure without an underlying cause.
     *
     * @param error   what kind of failure
     * @param message what failed, in words
     */
    public ChannelException(ChannelError error, String message) {
        super(message);
        this.error = error;
    }

    /**
     * A failure caused by another exception.
     *
     * @param error   what kind of failure
     * @param message what failed, in words
     * @param cause   the underlying exception
     */
    public ChannelException(ChannelError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    /**
     * What kind of failure this is.
     *
     * @return the kind, the same on RDMA and TCP
     */
    public ChannelError error() {
        return error;
    }

    @Override
    public String getMessage() {
        return error + ": " + super.getMessage();
    }
}
