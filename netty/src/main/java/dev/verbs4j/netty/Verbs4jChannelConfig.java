package dev.verbs4j.netty;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.loop.CompletionLoop;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannelConfig;
import java.time.Duration;
import java.util.Map;

/**
 * The configuration of a {@link Verbs4jSocketChannel}: Netty's socket options where they mean
 * something here, and this transport's ({@link Verbs4jChannelOption}).
 * <ul>
 *   <li>{@code AUTO_READ}, {@code ALLOCATOR}, {@code RCVBUF_ALLOCATOR}, {@code WRITE_BUFFER_WATER_MARK},
 *   {@code MAX_MESSAGES_PER_READ}, {@code AUTO_CLOSE}: as on any channel.</li>
 *   <li>{@code CONNECT_TIMEOUT_MILLIS}: bounds the TCP connect and the bootstrap exchange.</li>
 *   <li>{@code ALLOW_HALF_CLOSURE}: the peer's {@code shutdownOutput} (an in-band end of stream,
 *   after its last byte) is seen as input shutdown; off, the channel closes then.</li>
 *   <li>{@code SO_RCVBUF}: the receive window, bytes the peer may send before this side has
 *   read them (1 MiB by default); bytes not read yet wait in a ring of that size.</li>
 *   <li>{@code SO_SNDBUF}: bytes of sends in flight, in whole messages: the send-queue depth
 *   (32 by default) times the message size.</li>
 *   <li>{@code TCP_NODELAY}: for a channel that runs on TCP (on by default).</li>
 *   <li>{@code SO_KEEPALIVE}, {@code SO_LINGER}, {@code SO_REUSEADDR}, {@code IP_TOS}: kept and
 *   reported, no effect (the bootstrap connection keeps its own: keep-alive on, no linger).</li>
 * </ul>
 * The options that shape the connection (this transport's, {@code SO_RCVBUF}, {@code SO_SNDBUF},
 * {@code TCP_NODELAY}) are read when the channel is set up.
 */
public final class Verbs4jChannelConfig extends DefaultChannelConfig implements SocketChannelConfig {
    /** The receive window when SO_RCVBUF is not set. */
    public static final int DEFAULT_RECEIVE_WINDOW = 1 << 20;
    private static final int DEFAULT_SEND_DEPTH = 32;

    private final Verbs4jSocketChannel channel;
    private final TransportSettings transport = new TransportSettings();
    private volatile boolean allowHalfClosure;
    private volatile int receiveWindow = DEFAULT_RECEIVE_WINDOW;
    private volatile int sendQueueDepth = DEFAULT_SEND_DEPTH;
    private volatile boolean tcpNoDelay = true;
    private volatile boolean keepAlive = true, reuseAddress;
    private volatile int soLinger = -1, trafficClass;

    Verbs4jChannelConfig(Verbs4jSocketChannel channel) {
        super(channel);
        this.channel = channel;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), ChannelOption.ALLOW_HALF_CLOSURE, ChannelOption.SO_RCVBUF,
                ChannelOption.SO_SNDBUF, ChannelOption.TCP_NODELAY, ChannelOption.SO_KEEPALIVE,
                ChannelOption.SO_REUSEADDR, ChannelOption.SO_LINGER, ChannelOption.IP_TOS,
                Verbs4jChannelOption.TRANSPORT, Verbs4jChannelOption.DEVICE, Verbs4jChannelOption.GID_INDEX,
                Verbs4jChannelOption.MAX_MESSAGE_SIZE, Verbs4jChannelOption.COMPLETION_MODE);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        Object value;
        if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
            value = allowHalfClosure;
        } else if (option == ChannelOption.SO_RCVBUF) {
            value = receiveWindow;
        } else if (option == ChannelOption.SO_SNDBUF) {
            value = getSendBufferSize();
        } else if (option == ChannelOption.TCP_NODELAY) {
            value = tcpNoDelay;
        } else if (option == ChannelOption.SO_KEEPALIVE) {
            value = keepAlive;
        } else if (option == ChannelOption.SO_REUSEADDR) {
            value = reuseAddress;
        } else if (option == ChannelOption.SO_LINGER) {
            value = soLinger;
        } else if (option == ChannelOption.IP_TOS) {
            value = trafficClass;
        } else if (option == Verbs4jChannelOption.COMPLETION_MODE) {
            value = channel.completionMode();
        } else if (transport.knows(option)) {
            value = transport.get(option);
        } else {
            return super.getOption(option);
        }
        return (T) value;
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
            setAllowHalfClosure((Boolean) value);
        } else if (option == ChannelOption.SO_RCVBUF) {
            setReceiveBufferSize((Integer) value);
        } else if (option == ChannelOption.SO_SNDBUF) {
            setSendBufferSize((Integer) value);
        } else if (option == ChannelOption.TCP_NODELAY) {
            setTcpNoDelay((Boolean) value);
        } else if (option == ChannelOption.SO_KEEPALIVE) {
            setKeepAlive((Boolean) value);
        } else if (option == ChannelOption.SO_REUSEADDR) {
            setReuseAddress((Boolean) value);
        } else if (option == ChannelOption.SO_LINGER) {
            setSoLinger((Integer) value);
        } else if (option == ChannelOption.IP_TOS) {
            setTrafficClass((Integer) value);
        } else if (option == Verbs4jChannelOption.COMPLETION_MODE) {
            return false; // the event loop's: chosen with Verbs4jIoHandler.newFactory(mode)
        } else if (!transport.set(option, value)) {
            return super.setOption(option, value);
        }
        return true;
    }

    /** Bytes the peer may send before this side reads them: SO_RCVBUF. */
    int receiveWindow() {
        return receiveWindow;
    }

    /** The channel layer's configuration of this channel, on {@code loop}. */
    ChannelConfig channelConfig(CompletionLoop loop) {
        return transport.channelConfig(loop).sendQueueDepth(sendQueueDepth).tcpNoDelay(tcpNoDelay)
                .connectTimeout(Duration.ofMillis(Math.max(1, getConnectTimeoutMillis())));
    }

    @Override
    protected void autoReadCleared() {
        channel.autoReadCleared();
    }

    @Override
    public boolean isAllowHalfClosure() {
        return allowHalfClosure;
    }

    @Override
    public Verbs4jChannelConfig setAllowHalfClosure(boolean allowHalfClosure) {
        this.allowHalfClosure = allowHalfClosure;
        return this;
    }

    @Override
    public boolean isTcpNoDelay() {
        return tcpNoDelay;
    }

    @Override
    public Verbs4jChannelConfig setTcpNoDelay(boolean tcpNoDelay) {
        this.tcpNoDelay = tcpNoDelay;
        return this;
    }

    @Override
    public int getSoLinger() {
        return soLinger;
    }

    @Override
    public Verbs4jChannelConfig setSoLinger(int soLinger) {
        this.soLinger = soLinger;
        return this;
    }

    @Override
    public int getSendBufferSize() {
        return sendQueueDepth * transport.maxMessageSize();
    }

    @Override
    public Verbs4jChannelConfig setSendBufferSize(int sendBufferSize) {
        this.sendQueueDepth = Math.max(2, sendBufferSize / transport.maxMessageSize());
        return this;
    }

    @Override
    public int getReceiveBufferSize() {
        return receiveWindow;
    }

    @Override
    public Verbs4jChannelConfig setReceiveBufferSize(int receiveBufferSize) {
        this.receiveWindow = TransportSettings.atLeast("SO_RCVBUF", receiveBufferSize, 4096);
        return this;
    }

    @Override
    public boolean isKeepAlive() {
        return keepAlive;
    }

    @Override
    public Verbs4jChannelConfig setKeepAlive(boolean keepAlive) {
        this.keepAlive = keepAlive;
        return this;
    }

    @Override
    public int getTrafficClass() {
        return trafficClass;
    }

    @Override
    public Verbs4jChannelConfig setTrafficClass(int trafficClass) {
        this.trafficClass = trafficClass;
        return this;
    }

    @Override
    public boolean isReuseAddress() {
        return reuseAddress;
    }

    @Override
    public Verbs4jChannelConfig setReuseAddress(boolean reuseAddress) {
        this.reuseAddress = reuseAddress;
        return this;
    }

    @Override
    public Verbs4jChannelConfig setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
        return this;
    }

    @Override
    public Verbs4jChannelConfig setConnectTimeoutMillis(int connectTimeoutMillis) {
        super.setConnectTimeoutMillis(connectTimeoutMillis);
        return this;
    }

    @Override
    @Deprecated
    public Verbs4jChannelConfig setMaxMessagesPerRead(int maxMessagesPerRead) {
        super.setMaxMessagesPerRead(maxMessagesPerRead);
        return this;
    }

    @Override
    public Verbs4jChannelConfig setWriteSpinCount(int writeSpinCount) {
        super.setWriteSpinCount(writeSpinCount);
        return this;
    }

    @Override
    public Verbs4jChannelConfig setAllocator(ByteBufAllocator allocator) {
        super.setAllocator(allocator);
        return this;
    }

    @Override
    public Verbs4jChannelConfig setRecvByteBufAllocator(RecvByteBufAllocator allocator) {
        super.setRecvByteBufAllocator(allocator);
        return this;
    }

    @Override
    public Verbs4jChannelConfig setAutoRead(boolean autoRead) {
        super.setAutoRead(autoRead);
        return this;
    }

    @Override
    public Verbs4jChannelConfig setAutoClose(boolean autoClose) {
        super.setAutoClose(autoClose);
        return this;
    }

    @Override
    public Verbs4jChannelConfig setMessageSizeEstimator(MessageSizeEstimator estimator) {
        super.setMessageSizeEstimator(estimator);
        return this;
    }

    @Override
    public Verbs4jChannelConfig setWriteBufferWaterMark(WriteBufferWaterMark writeBufferWaterMark) {
        super.setWriteBufferWaterMark(writeBufferWaterMark);
        return this;
    }
}
