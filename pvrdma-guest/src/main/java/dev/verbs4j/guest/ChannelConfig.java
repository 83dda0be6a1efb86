package dev.verbs4j.guest;

import dev.verbs4j.guest.loop.CompletionLoop;
import java.time.Duration;
import java.util.Objects;

/**
 * How channels are set up: the transport preference, the completion loop (a shared one, or a
 * private loop per channel in {@link #mode()}), queue depths, sizes and timeouts, and which RDMA
 * device and GID to use.
 */
public final class ChannelConfig {
    private TransportPreference transport = TransportPreference.AUTO;
    private CompletionMode mode = CompletionMode.EVENT;
    private CompletionLoop loop;
    private int maxMessageSize = 64 * 1024;
    private int sendQueueDepth = 32;
    private int receiveDepth = 32;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration rdmaConnectTimeout = Duration.ofSeconds(5);
    private Duration sendTimeout = Duration.ofSeconds(30);
    private Duration closeTimeout = Duration.ofSeconds(2);
    private String device;
    private int gidIndex = -1;

    public static ChannelConfig defaults() {
        return new ChannelConfig();
    }

    public ChannelConfig transport(TransportPreference preference) {
        this.transport = Objects.requireNonNull(preference);
        return this;
    }

    /** The mode of the private loop each channel starts when no shared {@link #loop} is given. */
    public ChannelConfig mode(CompletionMode mode) {
        this.mode = Objects.requireNonNull(mode);
        return this;
    }

    /** A loop the channels share (the caller closes it, after the channels). */
    public ChannelConfig loop(CompletionLoop loop) {
        this.loop = loop;
        return this;
    }

    /** The largest message this side wants to send; the channel uses the larger of both sides'. */
    public ChannelConfig maxMessageSize(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("max message size must be positive, got " + bytes);
        }
        this.maxMessageSize = bytes;
        return this;
    }

    /** Sends and one-sided operations in flight before send() waits. */
    public ChannelConfig sendQueueDepth(int depth) {
        this.sendQueueDepth = positive("send queue depth", depth);
        return this;
    }

    /** Receive buffers posted ahead (RDMA). */
    public ChannelConfig receiveDepth(int depth) {
        this.receiveDepth = positive("receive depth", depth);
        return this;
    }

    public ChannelConfig connectTimeout(Duration timeout) {
        this.connectTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /** How long the RDMA connection may take to carry a first message before falling back to TCP. */
    public ChannelConfig rdmaConnectTimeout(Duration timeout) {
        this.rdmaConnectTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /** How long send() waits for a free send-queue slot. */
    public ChannelConfig sendTimeout(Duration timeout) {
        this.sendTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /** How long close() waits for sends to drain and the peer to acknowledge. */
    public ChannelConfig closeTimeout(Duration timeout) {
        this.closeTimeout = Objects.requireNonNull(timeout);
        return this;
    }

    /** RDMA device to use (null: the first usable one). */
    public ChannelConfig device(String name) {
        this.device = name;
        return this;
    }

    /** GID index to use (-1: a RoCE v2 IPv4 GID). */
    public ChannelConfig gidIndex(int index) {
        this.gidIndex = index;
        return this;
    }

    public TransportPreference transport() {
        return transport;
    }

    public CompletionMode mode() {
        return loop != null ? loop.mode() : mode;
    }

    public CompletionLoop loop() {
        return loop;
    }

    public int maxMessageSize() {
        return maxMessageSize;
    }

    public int sendQueueDepth() {
        return sendQueueDepth;
    }

    public int receiveDepth() {
        return receiveDepth;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration rdmaConnectTimeout() {
        return rdmaConnectTimeout;
    }

    public Duration sendTimeout() {
        return sendTimeout;
    }

    public Duration closeTimeout() {
        return closeTimeout;
    }

    public String device() {
        return device;
    }

    public int gidIndex() {
        return gidIndex;
    }

    /** Registered bytes an RDMA channel of this configuration needs: its receive and send buffers. */
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
