package dev.verbs4j.netty;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionLoop;
import io.netty.channel.ChannelOption;

/**
 * This transport's own options ({@link Verbs4jChannelOption}) as a channel or a server holds
 * them, and the channel layer's configuration they make.
 */
final class TransportSettings {
    private volatile TransportPreference preference = TransportPreference.AUTO;
    private volatile String device;
    private volatile int gidIndex = -1;
    private volatile int maxMessageSize = 64 * 1024;

    boolean knows(ChannelOption<?> option) {
        return option == Verbs4jChannelOption.TRANSPORT || option == Verbs4jChannelOption.DEVICE
                || option == Verbs4jChannelOption.GID_INDEX || option == Verbs4jChannelOption.MAX_MESSAGE_SIZE;
    }

    @SuppressWarnings("unchecked")
    <T> T get(ChannelOption<T> option) {
        if (option == Verbs4jChannelOption.TRANSPORT) {
            return (T) preference;
        }
        if (option == Verbs4jChannelOption.DEVICE) {
            return (T) device;
        }
        if (option == Verbs4jChannelOption.GID_INDEX) {
            return (T) Integer.valueOf(gidIndex);
        }
        if (option == Verbs4jChannelOption.MAX_MESSAGE_SIZE) {
            return (T) Integer.valueOf(maxMessageSize);
        }
        return null;
    }

    /** Takes one of this transport's options; false for any other. */
    <T> boolean set(ChannelOption<T> option, T value) {
        if (option == Verbs4jChannelOption.TRANSPORT) {
            preference = (TransportPreference) value;
        } else if (option == Verbs4jChannelOption.DEVICE) {
            device = (String) value;
        } else if (option == Verbs4jChannelOption.GID_INDEX) {
            gidIndex = (Integer) value;
        } else if (option == Verbs4jChannelOption.MAX_MESSAGE_SIZE) {
            maxMessageSize = atLeast("VERBS4J_MAX_MESSAGE_SIZE", (Integer) value, 1024);
        } else {
            return false;
        }
        return true;
    }

    TransportPreference preference() {
        return preference;
    }

    int maxMessageSize() {
        return maxMessageSize;
    }

    /** The channel layer's configuration: these settings, on {@code loop} (null: a loop of its own). */
    ChannelConfig channelConfig(CompletionLoop loop) {
        return ChannelConfig.defaults().transport(preference).device(device).gidIndex(gidIndex)
                .maxMessageSize(maxMessageSize).loop(loop);
    }

    static int atLeast(String option, int value, int least) {
        if (value < least) {
            throw new IllegalArgumentException(option + " must be at least " + least + ", got " + value);
        }
        return value;
    }
}
