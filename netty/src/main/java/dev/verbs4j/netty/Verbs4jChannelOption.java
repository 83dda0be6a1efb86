package dev.verbs4j.netty;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.loop.CompletionMode;
import io.netty.channel.ChannelOption;

/**
 * Options of this transport beside Netty's own. Set them on the client's {@code Bootstrap} and as
 * {@code childOption} on a {@code ServerBootstrap}: a channel reads them when it is set up (the
 * bootstrap exchange with the peer), so a change later has no effect on it.
 *
 * @param <T> the option's value type
 */
public final class Verbs4jChannelOption<T> extends ChannelOption<T> {
    /**
     * AUTO (the default): shared memory between two processes of one user on one machine, else
     * RDMA when both ends can, else TCP; or SHM, RDMA or TCP forced.
     */
    public static final ChannelOption<TransportPreference> TRANSPORT = valueOf(Verbs4jChannelOption.class,
            "VERBS4J_TRANSPORT");
    /** The RDMA device to use, such as "rxe0"; null (the default) for the first usable one. */
    public static final ChannelOption<String> DEVICE = valueOf(Verbs4jChannelOption.class, "VERBS4J_DEVICE");
    /** The GID index to use; -1 (the default) for a RoCE v2 IPv4 GID. */
    public static final ChannelOption<Integer> GID_INDEX = valueOf(Verbs4jChannelOption.class, "VERBS4J_GID_INDEX");
    /**
     * The largest message the channel carries (64 KiB by default; both ends use the larger of
     * their two): a write of more bytes goes as several. RDMA registers it once per send-queue
     * entry and per posted receive.
     */
    public static final ChannelOption<Integer> MAX_MESSAGE_SIZE = valueOf(Verbs4jChannelOption.class,
            "VERBS4J_MAX_MESSAGE_SIZE");
    /**
     * How the event loop's completion loop waits: read-only here, since every channel of an
     * event loop shares it; chosen with {@link Verbs4jIoHandler#newFactory(CompletionMode)}.
     */
    public static final ChannelOption<CompletionMode> COMPLETION_MODE = valueOf(Verbs4jChannelOption.class,
            "VERBS4J_COMPLETION_MODE");

    @SuppressWarnings("deprecation")
    private Verbs4jChannelOption() {
        super(null);
    }
}
