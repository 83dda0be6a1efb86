package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.controller.HeldCommand;
import dev.verbs4j.nvmf.controller.IoQueue;
import dev.verbs4j.nvmf.types.ControllerIdentity;
import dev.verbs4j.nvmf.types.ControllerLostException;
import dev.verbs4j.nvmf.types.ControllerState;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.verbs.CmEventChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A controller's current {@link ControllerConnection} and what replaces it after a transport
 * failure, as Linux's initiator does: the broken connection is taken down, its asynchronous
 * commands are held, and a thread of its own connects again every reconnect delay (the same host
 * NQN and host id, a new controller id), as {@link ReconnectSchedule} says, on the same rdma_cm
 * event channel and verbs objects (the caller's {@link IoBuffer}s stay registered). A new
 * connection to the same controller (serial, model, subsystem) whose namespaces kept their sizes
 * becomes current and the held commands are sent again; otherwise, when the attempts run out, or
 * when the RDMA device was removed (its verbs objects cannot serve another connection), the
 * controller is lost and every held and later command fails with
 * {@link ControllerLostException}. Owns the channel and the verbs objects.
 */
final class Reconnector {
    private final NvmfConnectOptions options;
    private final CmEventChannel channel;
    private final ControllerResources resources;
    private final ReconnectSchedule schedule;
    private final boolean reconnects;
    /** Guards the schedule, {@link #held}, {@link #lostCause}, {@link #broken}; waited on for state changes. */
    private final Object lock = new Object();
    private final List<HeldCommand> held = new ArrayList<>();
    private volatile ControllerConnection current;
    private NvmfException broken;
    private NvmfException lostCause;
    private Namespaces namespaces;
    private IoSubmissions submissions;
    private Thread thread;
    private boolean closed;

    private Reconnector(NvmfConnectOptions o) {
        this.options = o;
        this.reconnects = !o.isDiscovery() && !o.controllerLossTimeout().isZero();
        this.schedule = new ReconnectSchedule(o.reconnectDelay(), o.isDiscovery() ? java.time.Duration.ZERO
                : o.controllerLossTimeout());
        this.channel = CmEventChannel.create();
        this.resources = new ControllerResources(o.progressThread() && !o.isDiscovery());
    }

    /** Connects the first time; a failure closes everything and is thrown. */
    static Reconnector connect(NvmfConnectOptions o) {
        Reconnector r = new Reconnector(o);
        try {
            r.current = r.open();
            return r;
        } catch (RuntimeException e) {
            r.resources.close();
            r.channel.close();
            throw e;
        }
    }

    /** Called once the facade's parts exist: the re-sending and the namespace check need them. */
    void start(Namespaces namespaces, IoSubmissions submissions) {
        this.namespaces = namespaces;
        this.submissions = submissions;
        if (reconnects) {
            thread = Thread.ofPlatform().daemon().name("nvmf-reconnect " + options.subsystemNqn()).start(this::run);
        }
    }

    private ControllerConnection open() {
        ControllerConnection[] made = new ControllerConnection[1];
        Consumer<NvmfException> onBroken = cause -> broke(made[0], cause);
        made[0] = ControllerConnection.open(options, channel, resources, reconnects ? this::holdFailed : null, onBroken);
        return made[0];
    }

    ControllerConnection current() {
        return current;
    }

    ControllerResources resources() {
        return resources;
    }

    ControllerState state() {
        synchronized (lock) {
            return schedule.state();
        }
    }

    /** Why the controller is lost (or broken, without reconnect), or null while it is live or reconnecting. */
    NvmfException failure() {
        synchronized (lock) {
            return switch (schedule.state()) {
                case LIVE -> reconnects ? null : current.failure();
                case RECONNECTING -> null;
                case LOST -> lostCause != null ? lostCause : current.failure();
                case CLOSED -> current.failure();
            };
        }
    }

    /** What broke the connection last, or null while the first one works (reconnecting or not). */
    NvmfException lastTransportFailure() {
        synchronized (lock) {
            return broken;
        }
    }

    /** A queue of {@code c} broke: when {@code c} is the live connection, the reconnect starts. Never blocks. */
    private void broke(ControllerConnection c, NvmfException cause) {
        synchronized (lock) {
            if (c == null || c != current || schedule.state() != ControllerState.LIVE) {
                return; // a connection being taken down or not yet current
            }
            broken = cause;
            if (schedule.failed(System.nanoTime()) == ControllerState.RECONNECTING && c.deviceRemoved()) {
                schedule.lost(); // the shared verbs objects and the caller's buffers are on the device that went
            }
            if (schedule.state() == ControllerState.LOST && reconnects) {
                lostCause = lost(cause);
            }
            lock.notifyAll();
        }
    }

    private ControllerLostException lost(NvmfException cause) {
        return new ControllerLostException("controller " + options.subsystemNqn() + " at "
                + options.target().getAddress().getHostAddress() + ":" + options.target().getPort()
                + " lost: " + cause.getMessage(), cause);
    }

    /** The holder of {@code c}'s I/O queues: a command the transport failed is held, sent now or failed. */
    private NvmfException holdFailed(HeldCommand command, NvmfException cause) {
        ControllerConnection seenOn = current;
        return switch (hold(command, seenOn, cause)) {
            case HELD -> null;
            case RETRY -> {
                submissions.resend(command);
                yield null;
            }
            case FAILED -> failureFor(cause);
        };
    }

    enum Hold { HELD, RETRY, FAILED }

    /**
     * A command that could not go to {@code seenOn} because it broke: HELD until the reconnect,
     * RETRY when a newer connection is live, FAILED when the controller is lost or closed.
     */
    Hold hold(HeldCommand command, ControllerConnection seenOn, NvmfException cause) {
        synchronized (lock) {
            ControllerState s = schedule.state();
            if (!reconnects || s == ControllerState.LOST || s == ControllerState.CLOSED) {
                return Hold.FAILED;
            }
            if (s == ControllerState.LIVE && seenOn != current) {
                return Hold.RETRY;
            }
            held.add(command);
            if (s == ControllerState.LIVE) {
                broke(seenOn, cause); // it broke before it became current: nobody has said so yet
            }
            return Hold.HELD;
        }
    }

    /** The failure to report for an I/O the transport failed, once it is not held. */
    NvmfException failureFor(NvmfException cause) {
        synchronized (lock) {
            if (schedule.state() == ControllerState.LOST && lostCause != null) {
                return lostCause;
            }
            if (schedule.state() == ControllerState.CLOSED && reconnects) {
                return closedWhileReconnecting(cause);
            }
            return cause;
        }
    }

    private static NvmfTransportException closedWhileReconnecting(NvmfException cause) {
        return new NvmfTransportException("the controller was closed while reconnecting: the I/O was not completed",
                cause);
    }

    /**
     * For a synchronous command that failed with {@code cause} because {@code c} broke: waits
     * until another connection is live (the caller sends it again there) or throws what ended the
     * controller. Uninterruptible, as the command itself; the interrupt status is kept.
     */
    void awaitReplacement(ControllerConnection c, NvmfException cause) {
        boolean interrupted = false;
        try {
            synchronized (lock) {
                while (true) {
                    ControllerState s = schedule.state();
                    if (!reconnects || s == ControllerState.LOST || s == ControllerState.CLOSED) {
                        throw failureForLocked(cause);
                    }
                    if (s == ControllerState.LIVE && c != current) {
                        return;
                    }
                    if (s == ControllerState.LIVE) {
                        broke(c, cause); // it broke before it became current: nobody has said so yet
                        continue;
                    }
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private NvmfException failureForLocked(NvmfException cause) {
        return failureFor(cause); // the lock is reentrant
    }

    /** The reconnect thread: waits for a failure, takes the connection down, connects again until live or lost. */
    private void run() {
        while (true) {
            ControllerConnection old;
            synchronized (lock) {
                while (schedule.state() == ControllerState.LIVE) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        return; // only close interrupts it
                    }
                }
                if (schedule.state() == ControllerState.CLOSED) {
                    return;
                }
                old = current;
            }
            try {
                old.closeBroken(); // fails what it had in flight: held, as the state is no longer LIVE
            } catch (RuntimeException e) {
                // a half-gone connection: what could be freed is; the next one is made anew
            }
            if (!reconnectUntilLiveOrLost()) {
                return;
            }
        }
    }

    /** Returns true when live again, false when lost or closed (held commands failed). */
    private boolean reconnectUntilLiveOrLost() {
        while (true) {
            synchronized (lock) {
                long wait;
                while (schedule.state() == ControllerState.RECONNECTING
                        && (wait = schedule.nanosUntilAttempt(System.nanoTime())) > 0) {
                    try {
                        TimeUnit.NANOSECONDS.timedWait(lock, wait);
                    } catch (InterruptedException e) {
                        return false;
                    }
                }
                if (schedule.state() != ControllerState.RECONNECTING) {
                    failHeld();
                    return false;
                }
            }
            ControllerConnection next;
            String changed;
            try {
                next = open();
                try {
                    changed = changedFrom(next);
                } catch (RuntimeException e) {
                    next.close(false);
                    throw e;
                }
            } catch (RuntimeException e) { // whatever failed, the attempt failed: the schedule decides what next
                synchronized (lock) {
                    if (schedule.attemptFailed(System.nanoTime()) == ControllerState.LOST) {
                        lostCause = lost(e instanceof NvmfException n ? n
                                : new NvmfTransportException("reconnect attempt: " + e, e));
                        failHeld();
                        lock.notifyAll();
                        return false;
                    }
                }
                continue;
            }
            List<HeldCommand> resend;
            synchronized (lock) {
                if (changed != null) {
                    schedule.lost();
                    lostCause = new ControllerLostException(changed, broken);
                }
                if (schedule.state() != ControllerState.RECONNECTING) {
                    failHeld();
                    lock.notifyAll();
                    next.close(false);
                    return false;
                }
                current = next;
                schedule.attemptSucceeded();
                resend = new ArrayList<>(held);
                held.clear();
                lock.notifyAll();
            }
            for (HeldCommand c : resend) {
                submissions.resend(c);
            }
            return true;
        }
    }

    /** Why {@code next} is not the controller that was lost, or null when it is. */
    private String changedFrom(ControllerConnection next) {
        ControllerIdentity was = current.identity;
        ControllerIdentity is = next.identity;
        if (was.vendorId() != is.vendorId() || !was.serial().equals(is.serial()) || !was.model().equals(is.model())
                || !was.subsystemNqn().equals(is.subsystemNqn())) {
            return "the controller came back as another one: serial " + is.serial() + ", model " + is.model()
                    + " (was " + was.serial() + ", " + was.model() + ")";
        }
        return namespaces.changedBehind(next.admin);
    }

    /** Fails every held command with what ended the controller. Under the lock. */
    private void failHeld() {
        NvmfException f = failureFor(broken != null ? broken : new NvmfTransportException("the controller is gone"));
        for (HeldCommand c : held) {
            c.callback().completed(c.tag(), f);
        }
        held.clear();
    }

    /**
     * Ends reconnecting (an attempt under way finishes first, within the connect timeout), fails
     * the held commands, then takes the connection down and frees the shared verbs objects.
     */
    void close(boolean shutdown) {
        boolean live;
        synchronized (lock) {
            if (closed) {
                return; // AutoCloseable: a second close does nothing
            }
            closed = true;
            live = schedule.state() == ControllerState.LIVE && current.failure() == null;
            schedule.closed();
            failHeld();
            lock.notifyAll();
        }
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        current.close(shutdown && live);
        resources.close();
        channel.close();
    }
}
