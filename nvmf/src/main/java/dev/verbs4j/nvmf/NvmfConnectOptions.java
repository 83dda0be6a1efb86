package dev.verbs4j.nvmf;

import dev.verbs4j.loop.CompletionMode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * Where and how to connect, in {@code nvme connect}'s terms: transport address ({@code -a}),
 * host transport address ({@code -w}), service id ({@code -s}), subsystem NQN ({@code -n}), host NQN ({@code -q}) and host id
 * ({@code -I}), number of I/O queues ({@code -i}), queue size ({@code -Q}), keep-alive timeout
 * ({@code -k}). Immutable and thread-safe; the {@code with*} methods return a copy and throw
 * {@link IllegalArgumentException} for a value out of range, {@link NullPointerException} for null.
 */
public final class NvmfConnectOptions {
    /** The NVMe-oF/RDMA port (IANA's 4420), {@code nvme connect -s}'s default. */
    public static final int DEFAULT_PORT = 4420;
    /** The well-known NQN of a target's discovery subsystem. */
    public static final String DISCOVERY_NQN = "nqn.2014-08.org.nvmexpress.discovery";
    /** How long the progress thread's ADAPTIVE loop polls after its last completion before it sleeps until a completion event. */
    public static final Duration DEFAULT_PROGRESS_SPIN = Duration.ofMillis(1);
    /** Time between two reconnect attempts after a transport failure: Linux's NVMF_DEF_RECONNECT_DELAY. */
    public static final Duration DEFAULT_RECONNECT_DELAY = Duration.ofSeconds(10);
    /** How long a lost controller is tried again before its I/O fails: Linux's NVMF_DEF_CTRL_LOSS_TMO. */
    public static final Duration DEFAULT_CONTROLLER_LOSS_TIMEOUT = Duration.ofSeconds(600);

    private final InetSocketAddress target;
    private final InetAddress hostAddress;
    private final String subsystemNqn;
    private final UUID hostId;
    private final String hostNqn;
    private final int ioQueues;
    private final int queueSize;
    private final Duration keepAlive;
    private final Duration timeout;
    private final boolean progressThread;
    private final Duration progressSpin;
    private final CompletionMode completionMode;
    private final Duration reconnectDelay;
    private final Duration controllerLossTimeout;

    private NvmfConnectOptions(InetSocketAddress target, InetAddress hostAddress, String subsystemNqn, UUID hostId, String hostNqn,
                               int ioQueues, int queueSize, Duration keepAlive, Duration timeout,
                               boolean progressThread, Duration progressSpin, CompletionMode completionMode,
                               Duration reconnectDelay, Duration controllerLossTimeout) {
        this.target = target;
        this.hostAddress = hostAddress;
        this.subsystemNqn = subsystemNqn;
        this.hostId = hostId;
        this.hostNqn = hostNqn;
        this.ioQueues = ioQueues;
        this.queueSize = queueSize;
        this.keepAlive = keepAlive;
        this.timeout = timeout;
        this.progressThread = progressThread;
        this.progressSpin = progressSpin;
        this.completionMode = completionMode;
        this.reconnectDelay = reconnectDelay;
        this.controllerLossTimeout = controllerLossTimeout;
    }

    /**
     * The target at {@code address}:{@code port}, subsystem {@code subsystemNqn}, with a fresh host
     * id and a host NQN made from it; 1 I/O queue of 128 entries, keep-alive and timeout 10 s, no
     * progress thread.
     *
     * @param address      the target's IP address or host name (resolved now)
     * @param port         the target's port ({@link #DEFAULT_PORT})
     * @param subsystemNqn the subsystem to connect to
     * @return the options
     * @throws IllegalArgumentException when the address does not resolve
     * @throws NullPointerException     when the address or NQN is null
     */
    public static NvmfConnectOptions rdma(String address, int port, String subsystemNqn) {
        InetAddress ip = resolve("target", Objects.requireNonNull(address, "address"));
        UUID id = UUID.randomUUID();
        return new NvmfConnectOptions(new InetSocketAddress(ip, port), null, Objects.requireNonNull(subsystemNqn), id,
                "nqn.2014-08.org.nvmexpress:uuid:" + id, 1, 128, Duration.ofSeconds(10), Duration.ofSeconds(10), false,
                DEFAULT_PROGRESS_SPIN, CompletionMode.ADAPTIVE,
                DEFAULT_RECONNECT_DELAY, DEFAULT_CONTROLLER_LOSS_TIMEOUT);
    }

    private static InetAddress resolve(String what, String address) {
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown " + what + " address '" + address + "'", e);
        }
    }

    /**
     * Same target, the discovery subsystem.
     *
     * @return a copy with {@link #DISCOVERY_NQN}
     */
    public NvmfConnectOptions forDiscovery() {
        return withSubsystemNqn(DISCOVERY_NQN);
    }

    /**
     * Another subsystem on the same target.
     *
     * @param nqn the subsystem NQN
     * @return a copy
     */
    public NvmfConnectOptions withSubsystemNqn(String nqn) {
        return new NvmfConnectOptions(target, hostAddress, Objects.requireNonNull(nqn), hostId, hostNqn, ioQueues, queueSize,
                keepAlive, timeout, progressThread, progressSpin, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * The local address the queues connect from ({@code nvme connect --host-traddr}): it picks the
     * RDMA device and port, and the route, where the target's address alone would pick another
     * (e.g. a target reachable both through a loopback device and across a link).
     *
     * @param address a local IP address or host name (resolved now); null for the one the route to
     *                the target picks
     * @return a copy
     * @throws IllegalArgumentException when the address does not resolve
     */
    public NvmfConnectOptions withHostAddress(String address) {
        InetAddress ip = address == null ? null : resolve("host", address);
        return new NvmfConnectOptions(target, ip, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive,
                timeout, progressThread, progressSpin, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * This host's identity as the target sees it (its allowed-hosts list names host NQNs).
     *
     * @param nqn the host NQN
     * @param id  the host identifier
     * @return a copy
     */
    public NvmfConnectOptions withHost(String nqn, UUID id) {
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, Objects.requireNonNull(id), Objects.requireNonNull(nqn),
                ioQueues, queueSize, keepAlive, timeout, progressThread, progressSpin, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * Number of I/O queues, each its own QP.
     *
     * @param n 1..64
     * @return a copy
     */
    public NvmfConnectOptions withIoQueues(int n) {
        if (n < 1 || n > 64) {
            throw new IllegalArgumentException("I/O queues: 1..64, got " + n);
        }
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, n, queueSize, keepAlive, timeout,
                progressThread, progressSpin, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * Entries per I/O queue, capped by the controller's CAP.MQES; a queue holds one command fewer in flight.
     *
     * @param n 2..1024
     * @return a copy
     */
    public NvmfConnectOptions withQueueSize(int n) {
        if (n < 2 || n > 1024) {
            throw new IllegalArgumentException("queue size: 2..1024, got " + n);
        }
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, ioQueues, n, keepAlive, timeout,
                progressThread, progressSpin, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * The keep-alive timeout sent in Connect; a Keep Alive goes every half of it.
     *
     * @param d the timeout; zero turns keep-alive off
     * @return a copy
     */
    public NvmfConnectOptions withKeepAlive(Duration d) {
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, ioQueues, queueSize,
                Objects.requireNonNull(d), timeout, progressThread, progressSpin, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * Deadline of every connection step and of every synchronous command.
     *
     * @param d a positive duration
     * @return a copy
     */
    public NvmfConnectOptions withTimeout(Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, got " + d);
        }
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive, d,
                progressThread, progressSpin, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * Whether a completion loop of the controller's own (its thread is the progress thread) takes
     * the I/O queues' completions, as {@link #withCompletionMode} says it waits; threads that wait
     * for an I/O drive the loop meanwhile. Without it the caller calls {@link NvmfController#poll()}.
     *
     * @param on true for a progress thread
     * @return a copy
     */
    public NvmfConnectOptions withProgressThread(boolean on) {
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive, timeout,
                on, progressSpin, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * How long the progress thread's loop keeps polling (in {@link CompletionMode#ADAPTIVE}) after
     * the last completion, before it arms the I/O queues' completion queues and sleeps until a
     * completion event (as the kernel initiator does on every command). Polling answers sooner;
     * sleeping leaves the CPU to others — on a small VM, to the very target or hypervisor that has
     * to do the I/O. An idle controller's loop sleeps: it wakes no CPU.
     *
     * @param d zero to sleep at once (event-driven); a long duration to poll while I/O is in flight
     * @return a copy
     */
    public NvmfConnectOptions withProgressSpin(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("progress spin must not be negative, got " + d);
        }
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive, timeout,
                progressThread, d, completionMode, reconnectDelay, controllerLossTimeout);
    }

    /**
     * How the progress thread's completion loop waits: {@link CompletionMode#ADAPTIVE} (the
     * default) polls for {@link #withProgressSpin} after its last completion, then sleeps until a
     * completion event; {@link CompletionMode#EVENT} sleeps at once; {@link CompletionMode#BUSY_POLL}
     * never sleeps (lowest latency, one core busy). Without a progress thread the caller polls.
     *
     * @param mode how the loop waits
     * @return a copy
     */
    public NvmfConnectOptions withCompletionMode(CompletionMode mode) {
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive, timeout,
                progressThread, progressSpin, Objects.requireNonNull(mode, "mode"), reconnectDelay,
                controllerLossTimeout);
    }

    /**
     * Time between two reconnect attempts after a transport failure ({@code nvme connect
     * --reconnect-delay}); the first attempt comes one delay after the failure.
     *
     * @param d a positive duration; {@link #DEFAULT_RECONNECT_DELAY} unless set
     * @return a copy
     */
    public NvmfConnectOptions withReconnectDelay(Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("reconnect delay must be positive, got " + d);
        }
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive, timeout,
                progressThread, progressSpin, completionMode, d, controllerLossTimeout);
    }

    /**
     * How long the controller is tried again after a transport failure before it is given up
     * ({@code nvme connect --ctrl-loss-tmo}), as Linux counts it: ceil(timeout / reconnect delay)
     * attempts, one every delay; I/O held meanwhile then fails with
     * {@link dev.verbs4j.nvmf.types.ControllerLostException}.
     *
     * @param d the timeout; zero for no reconnect (the first transport failure breaks the
     *          controller); negative to try again forever
     * @return a copy
     */
    public NvmfConnectOptions withControllerLossTimeout(Duration d) {
        return new NvmfConnectOptions(target, hostAddress, subsystemNqn, hostId, hostNqn, ioQueues, queueSize, keepAlive, timeout,
                progressThread, progressSpin, completionMode, reconnectDelay, Objects.requireNonNull(d));
    }

    /**
     * Time between two reconnect attempts.
     *
     * @return the delay; {@link #DEFAULT_RECONNECT_DELAY} unless set
     */
    public Duration reconnectDelay() {
        return reconnectDelay;
    }

    /**
     * How long a lost controller is tried again.
     *
     * @return the timeout: zero for no reconnect, negative for forever;
     *         {@link #DEFAULT_CONTROLLER_LOSS_TIMEOUT} unless set
     */
    public Duration controllerLossTimeout() {
        return controllerLossTimeout;
    }

    /**
     * The target's address and port.
     *
     * @return the resolved socket address
     */
    public InetSocketAddress target() {
        return target;
    }

    /**
     * The local address the queues connect from.
     *
     * @return the address, or null for the one the route to the target picks
     */
    public InetAddress hostAddress() {
        return hostAddress;
    }

    /**
     * The subsystem to connect to.
     *
     * @return its NQN
     */
    public String subsystemNqn() {
        return subsystemNqn;
    }

    /**
     * This host's identifier, sent in Connect.
     *
     * @return the host id
     */
    public UUID hostId() {
        return hostId;
    }

    /**
     * This host's NQN, sent in Connect.
     *
     * @return the host NQN
     */
    public String hostNqn() {
        return hostNqn;
    }

    /**
     * Number of I/O queues.
     *
     * @return 1..64
     */
    public int ioQueues() {
        return ioQueues;
    }

    /**
     * Entries asked for per I/O queue.
     *
     * @return 2..1024
     */
    public int queueSize() {
        return queueSize;
    }

    /**
     * The keep-alive timeout.
     *
     * @return the duration, zero when off
     */
    public Duration keepAlive() {
        return keepAlive;
    }

    /**
     * Deadline of each connection step and synchronous command.
     *
     * @return the duration
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Whether a progress thread drives asynchronous I/O.
     *
     * @return true for a progress thread
     */
    public boolean progressThread() {
        return progressThread;
    }

    /**
     * How long the progress thread polls before it sleeps until a completion event.
     *
     * @return the duration; {@link #DEFAULT_PROGRESS_SPIN} unless set
     */
    public Duration progressSpin() {
        return progressSpin;
    }

    /**
     * How the progress thread's completion loop waits.
     *
     * @return the mode; {@link CompletionMode#ADAPTIVE} unless set
     */
    public CompletionMode completionMode() {
        return completionMode;
    }

    /**
     * Whether these options name the discovery subsystem.
     *
     * @return true for {@link #DISCOVERY_NQN}
     */
    public boolean isDiscovery() {
        return DISCOVERY_NQN.equals(subsystemNqn);
    }
}
