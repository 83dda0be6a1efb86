package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.RegisteredRegion;
import java.lang.foreign.MemorySegment;

/** The local-side checks both transports make before a one-sided operation or a send. */
final class RegionBounds {
    private RegionBounds() {}

    static MemorySegment localSlice(RegisteredRegion local, long offset, int length) {
        MemorySegment memory = local.memory();
        if (length < 0 || offset < 0 || offset > memory.byteSize() - length) {
            throw new ChannelException(ChannelError.LOCAL_LENGTH, "local range " + offset + "+" + length
                    + " is outside the " + memory.byteSize() + "-byte region");
        }
        return memory.asSlice(offset, length);
    }

    static void checkMessage(MemorySegment message, int maxMessageSize) {
        if (message.byteSize() > maxMessageSize) {
            throw new ChannelException(ChannelError.LOCAL_LENGTH, "message of " + message.byteSize()
                    + " bytes exceeds the channel's maximum of " + maxMessageSize);
        }
    }
}
