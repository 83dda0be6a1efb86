package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.time.Duration;
import java.util.Objects;

/**
 * How channels are set up: the transport preference, the completion loop (a shared one, or a
 * private loop per channel in {@link #mode()}), queue depths, sizes and timeouts, and which RDMA
 * device and GID to use.
 *
 * <p>A mutable builder: each setter returns this configuration. Not thread-safe; build it on one
 * thread, then hand it to {@link ChannelServer#listen} or {@link ChannelConnector#connect}, which
 * read it when each channel is set up (do not change it while channels are being set up).
 */
public final class ChannelConfig {
    private TransportPreference transport = TransportPreference.AUTO;
    private CompletionMode mode = CompletionMode.EVENT;
    private CompletionLoop loop;
    private int maxMessageSize = 64 * 1024;
    private int sendQueueDepth = 32;
    private int receiveDepth = 32;
    private long receiveBacklog = 16L << 20;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration rdmaConnectTimeout = Duration.ofSeconds(5);
    private Duration sendTimeout = Duration.ofSeconds(30);
    private Duration closeTimeout = Duration.ofSeconds(2);
    private Duration peerLossTimeout = Duration.ofSeconds(5);
    private String device;
    private int gidIndex = -1;
    private boolean tcpNoDelay = true;

    /** A configuration with the defaults, as {@link #defaults()} returns. */
    public ChannelConfig() {}

    /**
     * A new configuration with the defaults: AUTO transport, EVENT mode, 64 KiB messages, queue
     * depths of 32, the first usable RDMA device.
     *
     * @return a new configuration
     */
    public static ChannelConfig defaults() {
        return new ChannelConfig();
    }

    /**
     * Whether to choose the transport by capabilities or force one.
     *
     * @param preference the preference
     * @return this configuration
     */
    public ChannelConfig transport(TransportPreference preference) {
        this.transport = Objects.requireNonNull(preference);
        return this;
    }

    /**
     * The mode of the private loop each channel starts when no shared {@link #loop} is given.
     *
     * @param mode the value
     * @return this configuration
     */
    public ChannelConfig mode(CompletionMode mode) {
        this.mode = Objects.requireNonNull(mode);
        return this;
    }

    /**
     * A loop the channels share (the caller closes it, after the channels).
     *
     * @param loop the value
     * @return this configuration
     */
    public ChannelConfig loop(CompletionLoop loop) {
        this.loop = loop;
        return this;
    }

    /**
     * The largest message this side wants to send; the channel uses the larger of both sides'.
     * A peer may raise it to 16 MiB, or to this side's own value when that is larger: a peer that
     * asks for more is refused at connect, since each channel reserves buffers by this size.
     *
     * @param bytes the value
     * @return this configuration
     * @throws IllegalArgumentException when the value is not positive
     */
    public ChannelConfig maxMessageSize(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("max message size must be positive, got " + bytes);
        }
        this.maxMessageSize = bytes;
        return this;
    }

    /**
     * Sends and one-sided operations in flight before send() waits.
     *
     * @param depth the value
     * @return this configuration
     * @throws IllegalArgumentException when the value is not positive
     */
    public ChannelConfig sendQueueDepth(int depth) {
        this.sendQueueDepth = positive("send queue depth", depth);
        return this;
    }

    /**
     * Receive buffers posted ahead (RDMA).
     *
     * @param depth the value
     * @return this configuration
     * @throws IllegalArgumentException when the value is not positive
     */
    public ChannelConfig receiveDepth(int depth) {
        this.receiveDepth = positive("receive depth", depth);
        return this;
    }

    /**
     * How many bytes of arrived messages the channel keeps for receives not yet asked for
     * (default 16 MiB; each message counts 64 bytes more than its length). Past that it takes no
     * more from the peer (RDMA leaves its receive buffers unposted, TCP the data in the socket,
     * shm in the ring), so the peer's sends wait for credits and fail with SEND_QUEUE_FULL after
     * its send time-out, until a receive here makes room: a receiver that never reads costs
     * bounded memory on both sides, and loses nothing. A listener takes every message at once.
     *
     * @param bytes the value
     * @return this configuration
     * @throws IllegalArgumentException when the value is not positive
     */
    public ChannelConfig receiveBacklog(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("receive backlog must be positive, got " + bytes);
        }
        this.receiveBacklog = bytes;
        return this;
    }

    /**
     * How long connecting and the bootstrap exchange may take (default 10 s). Each wait for the
     * peer is bounded by it. A client probes its own device before it connects, so a server's wait
     * does not include that; a peer that is a freshly started JVM on a slow machine may still need
     * more.
     *
     * @param timeout the time limit
     * @return this configuration
     */
    public ChannelConfig connectTimeout(Duration timeout) {
        this.connectTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /**
     * How long the RDMA connection may take to carry a first message before falling back to TCP.
     *
     * @param timeout the value
     * @return this configuration
     */
    public ChannelConfig rdmaConnectTimeout(Duration timeout) {
        this.rdmaConnectTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /**
     * How long send() waits for a free send-queue slot.
     *
     * @param timeout the value
     * @return this configuration
     */
    public ChannelConfig sendTimeout(Duration timeout) {
        this.sendTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /**
     * How long close() waits for sends to drain and the peer to acknowledge.
     *
     * @param timeout the value
     * @return this configuration
     */
    public ChannelConfig closeTimeout(Duration timeout) {
        this.closeTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /**
     * How long a peer that stops answering is waited for before the channel ends with
     * {@link ChannelError#PEER_LOST}: a peer whose link, host or kernel is gone, as opposed to one
     * that closed or whose process died (its kernel says so at once). An outage shorter than half
     * of it is repaired and loses nothing (retransmissions back off by doubling, so after a longer
     * one the next may come only at the timeout itself); a silence longer than it ends the channel
     * within about this time.
     *
     * <p>On RDMA it sets the RC queue pair's local ACK timeout: the largest one whose eight tries
     * (the first send and seven retries) fit in it, so a lost packet that no later packet reveals
     * is resent after an eighth of it at most. The default gives 537 ms, 4.3 s in all, what
     * rdma_cm gives a RoCE queue pair; a shorter timeout resends sooner on a lossy link and gives
     * up sooner on a flapping one. On TCP, and on the TCP connection beside an RDMA channel that
     * also notices an idle one, it is TCP_USER_TIMEOUT with keep-alive probes. Shared memory
     * notices a dead peer at once and never waits for a silent one: a stopped process is still there.
     *
     * @param timeout at least a millisecond (default 5 s)
     * @return this configuration
     */
    public ChannelConfig peerLossTimeout(Duration timeout) {
        if (Objects.requireNonNull(timeout).toMillis() < 1) {
            throw new IllegalArgumentException("peerLossTimeout must be at least 1 ms, got " + timeout);
        }
        this.peerLossTimeout = timeout;
        return this;
    }

    /**
     * RDMA device to use (null: the first usable one).
     *
     * @param name the value
     * @return this configuration
     */
    public ChannelConfig device(String name) {
        this.device = name;
        return this;
    }

    /**
     * GID index to use (-1: a RoCE v2 IPv4 GID).
     *
     * @param index the value
     * @return this configuration
     */
    public ChannelConfig gidIndex(int index) {
        this.gidIndex = index;
        return this;
    }

    /**
     * Whether a channel that runs on TCP sends each message at once (TCP_NODELAY, the default) or
     * lets the kernel's Nagle algorithm pack small messages into larger segments.
     *
     * <p>Keep the default for request and response: a message never waits. Turn it off for a
     * one-way stream of small messages: the receiver then wakes once per segment rather than once
     * per message (at 64 B that is several times the throughput). Linux holds a short segment back
     * only while an earlier short one is unacknowledged, so one message at a time out and back is
     * not slowed; two small sends before waiting for an answer can wait for the peer's delayed ACK
     * (tens of milliseconds). RDMA channels are not affected.
     *
     * @param noDelay true to send each message at once
     * @return this configuration
     */
    public ChannelConfig tcpNoDelay(boolean noDelay) {
        this.tcpNoDelay = noDelay;
        return this;
    }

    /**
     * The transport preference.
     *
     * @return the value
     */
    public TransportPreference transport() {
        return transport;
    }

    /**
     * The completion mode: the shared loop's, or the one a private loop starts in.
     *
     * @return the value
     */
    public CompletionMode mode() {
        return loop != null ? loop.mode() : mode;
    }

    /**
     * The shared loop, or null when each channel starts its own.
     *
     * @return the value
     */
    public CompletionLoop loop() {
        return loop;
    }

    /**
     * The largest message this side wants to send, in bytes.
     *
     * @return the value
     */
    public int maxMessageSize() {
        return maxMessageSize;
    }

    /**
     * Sends and one-sided operations in flight before send() waits.
     *
     * @return the value
     */
    public int sendQueueDepth() {
        return sendQueueDepth;
    }

    /**
     * Receive buffers posted ahead (RDMA).
     *
     * @return the value
     */
    public int receiveDepth() {
        return receiveDepth;
    }

    /**
     * How many bytes of arrived messages wait for receives before the peer is held back.
     *
     * @return the value
     */
    public long receiveBacklog() {
        return receiveBacklog;
    }

    /**
     * How long connecting and the bootstrap exchange may take (default 10 s). Each wait for the
     * peer is bounded by it. A client probes its own device before it connects, so a server's wait
     * does not include that; a peer that is a freshly started JVM on a slow machine may still need
     * more.
     *
     * @return the value
     */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /**
     * How long the RDMA connection may take before falling back to TCP.
     *
     * @return the value
     */
    public Duration rdmaConnectTimeout() {
        return rdmaConnectTimeout;
    }

    /**
     * How long send() waits for a free send-queue slot.
     *
     * @return the value
     */
    public Duration sendTimeout() {
        return sendTimeout;
    }

    /**
     * How long close() waits for sends to drain.
     *
     * @return the value
     */
    public Duration closeTimeout() {
        return closeTimeout;
    }

    /**
     * How long a silent peer is waited for before the channel ends with PEER_LOST.
     *
     * @return the value
     */
    public Duration peerLossTimeout() {
        return peerLossTimeout;
    }

    /**
     * The RDMA device to use, or null for the first usable one.
     *
     * @return the value
     */
    public String device() {
        return device;
    }

    /**
     * The GID index to use, or -1 for a RoCE v2 IPv4 GID.
     *
     * @return the value
     */
    public int gidIndex() {
        return gidIndex;
    }

    /**
     * Whether a channel on TCP sends each message at once (TCP_NODELAY).
     *
     * @return the value
     */
    public boolean tcpNoDelay() {
        return tcpNoDelay;
    }

    /**
     * Registered bytes an RDMA channel of this configuration needs: its receive and send buffers.
     *
     * @param agreedMaxMessage the message size both sides agreed on
     * @return bytes of registered memory
     */
    public long bytesToRegister(int agreedMaxMessage) {
        return (long) agreedMaxMessage * (receiveDepth + sendQueueDepth);
    }

    private static int positive(String what, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
        return value;
    }
}
