package dev.verbs4j.guest;

/**
 * Push delivery instead of {@link Channel#receive()} futures. Called on the completion loop
 * thread: return quickly and do not block (a send from here that finds the send queue full fails
 * instead of waiting).
 */
public interface ChannelListener {

    void onMessage(Channel channel, ChannelMessage message);

    /** The channel ended: {@code cause} is null after an orderly close by either side. */
    default void onClosed(Channel channel, ChannelException cause) {}
}
