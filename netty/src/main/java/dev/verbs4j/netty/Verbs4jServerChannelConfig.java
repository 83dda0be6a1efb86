package dev.verbs4j.netty;

import dev.verbs4j.guest.ChannelConfig;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import java.util.Map;

/**
 * The configuration of a {@link Verbs4jServerSocketChannel}. Its own transport options
 * ({@link Verbs4jChannelOption}) say what the server looks at before it listens (the device);
 * each accepted channel is set up with its child options, given as {@code childOption} on the
 * {@code ServerBootstrap}. {@code SO_BACKLOG} is taken and reported; the listening socket's
 * backlog is the channel layer's.
 */
public final class Verbs4jServerChannelConfig extends DefaultChannelConfig {
    private final TransportSettings transport = new TransportSettings();
    private volatile int backlog = 128;

    Verbs4jServerChannelConfig(Verbs4jServerSocketChannel channel) {
        super(channel);
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), ChannelOption.SO_BACKLOG, Verbs4jChannelOption.TRANSPORT,
                Verbs4jChannelOption.DEVICE, Verbs4jChannelOption.GID_INDEX, Verbs4jChannelOption.MAX_MESSAGE_SIZE);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        if (option == ChannelOption.SO_BACKLOG) {
            return (T) Integer.valueOf(backlog);
        }
        T ours = transport.get(option);
        return ours != null || transport.knows(option) ? ours : super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        if (option == ChannelOption.SO_BACKLOG) {
            backlog = (Integer) value;
            return true;
        }
        return transport.set(option, value) || super.setOption(option, value);
    }

    /** What the server listens with (its device look before listening). */
    ChannelConfig listenConfig() {
        return transport.channelConfig(null);
    }
}
