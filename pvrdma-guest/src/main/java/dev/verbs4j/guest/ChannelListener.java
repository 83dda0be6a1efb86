package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;

/**
 * Push delivery instead of {@link Channel#receive()} futures. Called on the completion loop
 * thread: return quickly and do not block (a send from here that finds the send queue full fails
 * instead of waiting).
 *
 * <p>Without allocating: a listener that overrides
 * {@link #onMessage(Channel, MemorySegment, long, int, boolean, int)} reads each message where
 * the transport received it, as Aeron's fragment handlers do, and with
 * {@link Channel#offer(MemorySegment, boolean, int)} for sends a message costs no garbage on either side:
 * <pre>{@code
 * channel.setListener(new ChannelListener() {
 *     public void onMessage(Channel ch, MemorySegment buffer, long offset, int length,
 *                           boolean hasImmediate, int immediate) {
 *         long id = buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset); // valid during this call only
 *         ...
 *     }
 *     public void onMessage(Channel ch, ChannelMessage message) {} // not called
 * });
 * }</pre>
 */
public interface ChannelListener {

    /**
     * A message arrived, as a message of its own: called by the default
     * {@link #onMessage(Channel, MemorySegment, long, int, boolean, int)} with a copy.
     *
     * @param channel the channel it came on
     * @param message the message, which the listener owns from here on
     */
    void onMessage(Channel channel, ChannelMessage message);

    /**
     * A message arrived: its bytes are {@code [offset, offset + length)} of {@code buffer}, the
     * transport's receive memory, valid only until this method returns (the transport reuses it
     * then; copy what must outlive the call). What the channel calls; by default it copies the
     * bytes into a {@link ChannelMessage} and calls {@link #onMessage(Channel, ChannelMessage)}.
     * Override it to receive without allocating.
     *
     * @param channel      the channel it came on
     * @param buffer       the receive memory holding the message (read it, do not keep it)
     * @param offset       where the message starts in {@code buffer}
     * @param length       the message's size in bytes
     * @param hasImmediate whether the sender attached immediate data
     * @param immediate    the immediate data, 0 when there is none
     */
    default void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                           int immediate) {
        onMessage(channel, ChannelMessage.copyOf(buffer, offset, length, hasImmediate, immediate));
    }

    /**
     * The channel ended; called once.
     *
     * @param channel the channel that ended
     * @param cause   null after an orderly close by either side, otherwise the failure
     */
    default void onClosed(Channel channel, ChannelException cause) {}

    /**
     * The send queue that an {@link Channel#offer} or {@link Channel#trySend} found full has a
     * free slot again: called once after such a refusal, when the first slot is given back, in
     * the loop's passes. Until then the loop wakes for this side's own send completions too, as
     * it does for a thread that waits for a slot. A sender that never waits retries here, as a
     * non-blocking socket's writer does on writability.
     *
     * @param channel the channel whose send queue has room
     */
    default void onSendSpace(Channel channel) {}
}
