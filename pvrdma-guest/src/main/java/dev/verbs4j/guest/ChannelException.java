package dev.verbs4j.guest;

/** A channel operation failed; {@link #error()} says how, the same way on both transports. */
public class ChannelException extends RuntimeException {
    private final ChannelError error;

    public ChannelException(ChannelError error, String message) {
        super(message);
        this.error = error;
    }

    public ChannelException(ChannelError error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    public ChannelError error() {
        return error;
    }

    @Override
    public String getMessage() {
        return error + ": " + super.getMessage();
    }
}
