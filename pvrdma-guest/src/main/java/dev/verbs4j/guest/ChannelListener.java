package dev.verbs4j.guest;

/**
 * Push delivery instead of {@link Channel#receive()} futures. Called on the completion loop
 * thread: return quickly and do not block (a send from here that finds the send queue full fails
 * instead of waiting).
 */
public interface ChannelListener {

    /**
     * A message arrived.
     *
     * @param channel the channel it came on
     * @param message the message, which the listener owns from here on
     */
    void onMessage(Channel channel, ChannelMessage message);

    /**
     * The channel ended; called once.
     *
     * @param channel the channel that ended
     * @param cause   null after an orderly close by either side, otherwise the failure
     */
    default void onClosed(Channel channel, ChannelException cause) {}
}
