package dev.verbs4j.nvmf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * Where and how to connect, in {@code nvme connect}'s terms: transport address ({@code -a}),
 * service id ({@code -s}), subsystem NQN ({@code -n}), host NQN ({@code -q}) and host id
 * ({@code -I}), number of I/O queues ({@code -i}), queue size ({@code -Q}), keep-alive timeout
 * ({@code -k}). Immutable; the {@code with*} methods return a copy.
 */
public final class NvmfConnectOptions {
    public static final int DEFAULT_PORT = 4420;
    public static final String DISCOVERY_NQN = "nqn.2014-08.org.nvmexpress.discovery";

    private final InetSocketAddress target;
    private final String subsystemNqn;
    private final UUID hostId;
    private final String hostNqn;
    private final int ioQueues;
    private final int queueSize;
    private final Duration keepAlive;
    private final Duration timeout;
    private final boolean progressThread;

    private NvmfConnectOptions(InetSocketAddress target, String subsystemNqn, UUID hostId, String hostNqn,
                               int ioQueues, int queueSize, Duration keepAlive, Duration timeout,
                               boolean progressThread) {
        this.target = target;
        this.subsystemNqn = subsystemNqn;
        this.hostId = hostId;
        this.hostNqn = hostNqn;
        this.ioQueues = ioQueues;
        this.queueSize = queueSize;
        this.keepAlive = keepAlive;
        this.timeout = timeout;
        this.progressThread = progressThread;
    }

    /** The target at {@code address}:{@code port}, subsystem {@code subsystemNqn}; a fresh host id and NQN. */
    public static NvmfConnectOptions rdma(String address, int port, String subsystemNqn) {
        InetAddress ip;
        try {
            ip = InetAddress.getByName(Objects.requireNonNull(address, "address"));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown target address '" + address + "'", e);
        }
        UUID id = UUID.randomUUID();
        return new NvmfConnectOptions(new InetSocketAddress(ip, port), Objects.requireNonNull(subsystemNqn), id,
                "nqn.2014-08.org.nvmexpress:uuid:" + id, 1, 128, Duration.ofSeconds(10), Duration.ofSeconds(10), false);
    }

    /** Same target, the discovery subsystem. */
    public NvmfConnectOptions forDiscovery() {
        return withSubsystemNqn(DISCOVERY_NQN);
    }

    public NvmfConnectOptions withSubsystemNqn(String nqn) {
        return new NvmfConnectOptions(target, Objects.requireNonNull(nqn), hostId, hostNqn, ioQueues, queueSize,
                keepAlive, timeout, progressThread);
    }

    public NvmfConnectOptions withHost(String nqn, UUID id) {
        return new NvmfConnectOptions(target, subsystemNqn, Objects.requireNonNull(id), Objects.requireNonNull(nqn),
                ioQueues, queueSize, keepAlive, timeout, progressThread);
    }

    /** Number of I/O queues, each its own QP (1..64). */
    public NvmfConnectOptions withIoQueues(int n) {
        if (n < 1 || n > 64) {
            throw new IllegalArgumentException("I/O queues: 1..64, got " + n);
        }
        return new NvmfConnectOptions(target, subsystemNqn, hostId, hostNqn, n, queueSize, keepAlive, timeout,
                progressThread);
    }

    /** Entries per I/O queue (2..1024; capped by the controller's CAP.MQES); queueSize - 1 commands in flight. */
    public NvmfConnectOptions withQueueSize(int n) {
        if (n < 2 || n > 1024) {
            throw new IllegalArgumentException("queue size: 2..1024, got " + n);
        }
        return new NvmfConnectOptions(target, subsystemNqn, hostId, hostNqn, ioQueues, n, keepAlive, timeout,
                progressThread);
    }

    /** The keep-alive timeout sent in Connect (a Keep Alive goes every half of it); zero turns keep-alive off. */
    public NvmfConnectOptions withKeepAlive(Duration d) {
        return new NvmfConnectOptions(target, subsystemNqn, hostId, hostNqn, ioQueues, queueSize,
                Objects.requireNonNull(d), timeout, progressThread);
    }

    /** Deadline of every connection step and of every synchronous command. */
    public NvmfConnectOptions withTimeout(Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, got " + d);
        }
        return new NvmfConnectOptions(target, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive, d,
                progressThread);
    }

    /** Whether a per-controller thread drives asynchronous I/O; without it the caller calls {@code poll()}. */
    public NvmfConnectOptions withProgressThread(boolean on) {
        return new NvmfConnectOptions(target, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive, timeout,
                on);
    }

    public InetSocketAddress target() {
        return target;
    }

    public String subsystemNqn() {
        return subsystemNqn;
    }

    public UUID hostId() {
        return hostId;
    }

    public String hostNqn() {
        return hostNqn;
    }

    public int ioQueues() {
        return ioQueues;
    }

    public int queueSize() {
        return queueSize;
    }

    public Duration keepAlive() {
        return keepAlive;
    }

    public Duration timeout() {
        return timeout;
    }

    public boolean progressThread() {
        return progressThread;
    }

    public boolean isDiscovery() {
        return DISCOVERY_NQN.equals(subsystemNqn);
    }
}
