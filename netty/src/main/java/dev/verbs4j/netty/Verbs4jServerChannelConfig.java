package dev.verbs4j.netty;

import dev.verbs4j.guest.ChannelConfig;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ServerSocketChannelConfig;
import java.util.Map;

/**
 * The configuration of a {@link Verbs4jServerSocketChannel}. Its own transport options
 * ({@link Verbs4jChannelOption}) say what the server looks at before it listens (the device);
 * each accepted channel is set up with its child options, given as {@code childOption} on the
 * {@code ServerBootstrap}. {@code SO_BACKLOG}, {@code SO_REUSEADDR} and {@code SO_RCVBUF} are
 * kept and reported; the listening socket's are the channel layer's (backlog 128, reuse on).
 */
public final class Verbs4jServerChannelConfig extends DefaultChannelConfig implements ServerSocketChannelConfig {
    private final TransportSettings transport = new TransportSettings();
    private volatile int backlog = 128;
    private volatile boolean reuseAddress = true;
    private volatile int receiveBufferSize = Verbs4jChannelConfig.DEFAULT_RECEIVE_WINDOW;

    Verbs4jServerChannelConfig(Verbs4jServerSocketChannel channel) {
        super(channel);
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), ChannelOption.SO_BACKLOG, ChannelOption.SO_REUSEADDR,
                ChannelOption.SO_RCVBUF, Verbs4jChannelOption.TRANSPORT, Verbs4jChannelOption.DEVICE,
                Verbs4jChannelOption.GID_INDEX, Verbs4jChannelOption.MAX_MESSAGE_SIZE);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        if (option == ChannelOption.SO_BACKLOG) {
            return (T) Integer.valueOf(backlog);
        }
        if (option == ChannelOption.SO_REUSEADDR) {
            return (T) Boolean.valueOf(reuseAddress);
        }
        if (option == ChannelOption.SO_RCVBUF) {
            return (T) Integer.valueOf(receiveBufferSize);
        }
        return transport.knows(option) ? transport.get(option) : super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        if (option == ChannelOption.SO_BACKLOG) {
            setBacklog((Integer) value);
        } else if (option == ChannelOption.SO_REUSEADDR) {
            setReuseAddress((Boolean) value);
        } else if (option == ChannelOption.SO_RCVBUF) {
            setReceiveBufferSize((Integer) value);
        } else {
            return transport.set(option, value) || super.setOption(option, value);
        }
        return true;
    }

    /** What the server listens with (its device look before listening). */
    ChannelConfig listenConfig() {
        return transport.channelConfig(null);
    }

    @Override
    public int getBacklog() {
        return backlog;
    }

    @Override
    public Verbs4jServerChannelConfig setBacklog(int backlog) {
        this.backlog = backlog;
        return this;
    }

    @Override
    public boolean isReuseAddress() {
        return reuseAddress;
    }

    @Override
    public Verbs4jServerChannelConfig setReuseAddress(boolean reuseAddress) {
        this.reuseAddress = reuseAddress;
        return this;
    }

    @Override
    public int getReceiveBufferSize() {
        return receiveBufferSize;
    }

    @Override
    public Verbs4jServerChannelConfig setReceiveBufferSize(int receiveBufferSize) {
        this.receiveBufferSize = receiveBufferSize;
        return this;
    }

    @Override
    public Verbs4jServerChannelConfig setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
        return this;
    }

    @Override
    public Verbs4jServerChannelConfig setConnectTimeoutMillis(int connectTimeoutMillis) {
        super.setConnectTimeoutMillis(connectTimeoutMillis);
        return this;
    }

    @Override
    @Deprecated
    public Verbs4jServerChannelConfig setMaxMessagesPerRead(int maxMessagesPerRead) {
        super.setMaxMessagesPerRead(maxMessagesPerRead);
        return this;
    }

    @Override
    public Verbs4jServerChannelConfig setWriteSpinCount(int writeSpinCount) {
        super.setWriteSpinCount(writeSpinCount);
        return this;
    }

    @Override
    public Verbs4jServerChannelConfig setAllocator(ByteBufAllocator allocator) {
        super.setAllocator(allocator);
        return this;
    }

    @Override
    public Verbs4jServerChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
        super.setRecvByteBufAllocator(allocator);
        return this;
    }

    @Override
    public Verbs4jServerChannelConfig setAutoRead(boolean autoRead) {
        super.setAutoRead(autoRead);
        return this;
    }

    @Override
    public Verbs4jServerChannelConfig setMessageSizeEstimator(MessageSizeEstimator estimator) {
        super.setMessageSizeEstimator(estimator);
        return this;
    }

    @Override
    @Deprecated
    public Verbs4jServerChannelConfig setWriteBufferHighWaterMark(int writeBufferHighWaterMark) {
        super.setWriteBufferHighWaterMark(writeBufferHighWaterMark);
        return this;
    }

    @Override
    @Deprecated
    public Verbs4jServerChannelConfig setWriteBufferLowWaterMark(int writeBufferLowWaterMark) {
        super.setWriteBufferLowWaterMark(writeBufferLowWaterMark);
        return this;
    }

    @Override
    public Verbs4jServerChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
        super.setWriteBufferWaterMark(writeBufferWaterMark);
        return this;
    }
}
