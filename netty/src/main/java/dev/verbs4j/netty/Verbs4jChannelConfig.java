package dev.verbs4j.netty;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionLoop;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultChannelConfig;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DuplexChannelConfig;
import java.time.Duration;
import java.util.Map;

/**
 * The configuration of a {@link Verbs4jSocketChannel}: Netty's standard options where they mean
 * something here, and this transport's ({@link Verbs4jChannelOption}).
 * <ul>
 *   <li>{@code AUTO_READ}, {@code ALLOCATOR}, {@code RCVBUF_ALLOCATOR}, {@code WRITE_BUFFER_WATER_MARK},
 *   {@code MAX_MESSAGES_PER_READ}, {@code AUTO_CLOSE}: as on any channel.</li>
 *   <li>{@code CONNECT_TIMEOUT_MILLIS}: bounds the TCP connect and the bootstrap exchange.</li>
 *   <li>{@code ALLOW_HALF_CLOSURE}: the peer's {@code shutdownOutput} (an in-band end of stream,
 *   after its last byte) is seen as input shutdown; off, the channel closes then.</li>
 *   <li>{@code SO_RCVBUF}: the receive window, bytes the peer may send before this side has
 *   read them (1 MiB by default); bytes not read yet wait in a ring of that size.</li>
 *   <li>{@code SO_SNDBUF}: bytes of sends in flight, as whole messages: the send-queue depth
 *   (32 by default) times the message size.</li>
 *   <li>{@code TCP_NODELAY}: for a channel that runs on TCP (on by default).</li>
 * </ul>
 * The options that shape the connection (all of this transport's, {@code SO_RCVBUF},
 * {@code SO_SNDBUF}, {@code TCP_NODELAY}) are read when the channel is set up.
 */
public final class Verbs4jChannelConfig extends DefaultChannelConfig implements DuplexChannelConfig {
    /** The receive window when SO_RCVBUF is not set. */
    public static final int DEFAULT_RECEIVE_WINDOW = 1 << 20;
    private static final int DEFAULT_SEND_DEPTH = 32;

    private final Verbs4jSocketChannel channel;
    private volatile boolean allowHalfClosure;
    private volatile int receiveWindow = DEFAULT_RECEIVE_WINDOW;
    private volatile int sendQueueDepth = DEFAULT_SEND_DEPTH;
    private volatile boolean tcpNoDelay = true;
    private final TransportSettings transport = new TransportSettings();

    Verbs4jChannelConfig(Verbs4jSocketChannel channel) {
        super(channel);
        this.channel = channel;
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), ChannelOption.ALLOW_HALF_CLOSURE, ChannelOption.SO_RCVBUF,
                ChannelOption.SO_SNDBUF, ChannelOption.TCP_NODELAY, Verbs4jChannelOption.TRANSPORT,
                Verbs4jChannelOption.DEVICE, Verbs4jChannelOption.GID_INDEX, Verbs4jChannelOption.MAX_MESSAGE_SIZE,
                Verbs4jChannelOption.COMPLETION_MODE);
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T getOption(ChannelOption<T> option) {
        if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
            return (T) Boolean.valueOf(allowHalfClosure);
        }
        if (option == ChannelOption.SO_RCVBUF) {
            return (T) Integer.valueOf(receiveWindow);
        }
        if (option == ChannelOption.SO_SNDBUF) {
            return (T) Integer.valueOf(sendQueueDepth * transport.maxMessageSize());
        }
        if (option == ChannelOption.TCP_NODELAY) {
            return (T) Boolean.valueOf(tcpNoDelay);
        }
        if (option == Verbs4jChannelOption.COMPLETION_MODE) {
            return (T) channel.completionMode();
        }
        T ours = transport.get(option);
        return ours != null || transport.knows(option) ? ours : super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        if (option == ChannelOption.ALLOW_HALF_CLOSURE) {
            setAllowHalfClosure((Boolean) value);
        } else if (option == ChannelOption.SO_RCVBUF) {
            receiveWindow = TransportSettings.atLeast("SO_RCVBUF", (Integer) value, 4096);
        } else if (option == ChannelOption.SO_SNDBUF) {
            sendQueueDepth = Math.max(2, (Integer) value / transport.maxMessageSize());
        } else if (option == ChannelOption.TCP_NODELAY) {
            tcpNoDelay = (Boolean) value;
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

    /** The transport preference this channel asks for. */
    TransportPreference transportPreference() {
        return transport.preference();
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
