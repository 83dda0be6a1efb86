package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;

/**
 * A listener that reads each message where it arrived (it overrides
 * {@link ChannelListener#onMessage(Channel, java.lang.foreign.MemorySegment, long, int, boolean, int)}):
 * the copying method is never called, and fails loudly if it were.
 */
interface InPlaceListener extends ChannelListener {
    @Override
    default void onMessage(Channel channel, ChannelMessage message) {
        throw new AssertionError("the in-place onMessage is the one the channel calls");
    }
}
