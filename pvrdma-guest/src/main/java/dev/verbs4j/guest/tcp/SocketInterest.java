package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.channel.ChannelBase;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.spi.LoopEngine;
import dev.verbs4j.unix.Epoll;
import dev.verbs4j.unix.LinuxCallException;
import dev.verbs4j.unix.NativeSocket;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the completion loop watches a TCP channel's socket for, and who reads its input: the loop
 * when epoll reports it (watched), the loop on a timer ({@link LoopReads}: polling), or a thread
 * that receives ({@link DirectReader}: taken), which the input goes back from after
 * {@link #DIRECT_LINGER_NANOS}. OUT is asked for only while bytes are queued.
 *
 * <p>Owns the interest lock, which guards every field here but {@link #released} and
 * {@link #lastDirectRead} (volatile), and the socket's epoll entry. Held briefly, never across a
 * write or a wait: a receiving thread takes it on every receive, and must not wait out a sender's
 * write. The innermost of the channel's locks (see the package's notes for the order).
 */
final class SocketInterest {
    private static final Logger LOG = LoggerFactory.getLogger(SocketInterest.class);
    /** How long the socket stays out of the loop's IN set after the last receive that read it directly. */
    static final long DIRECT_LINGER_NANOS = 10_000_000L;

    /** What a polling timer's look finds ({@link #lookAtPolledInput}). */
    enum Look {
        /** The polling ended, or the socket is released: nothing to do. */
        NONE,
        /** The loop still has the input: read it. */
        READ,
        /** A receiving thread took the input: the polling ends, as that thread reads from now on. */
        TAKEN
    }

    private final Object lock = new Object();
    private final NativeSocket socket;
    private final CompletionLoop loop;
    private final LoopEngine engine;
    private final ChannelBase channel;
    /** The reading lock, only looked at: a thread that holds it may still wait in its read. */
    private final ReentrantLock reading;
    /** Runs after the linger gave the input back: the loop handles what a receiving thread left read. */
    private final Runnable afterRewatch;
    private final Runnable rewatchAfterLinger = this::rewatchAfterLinger;
    private boolean inputWatched = true;
    private boolean writeInterest;
    private boolean polling;
    private boolean rewatchScheduled;
    /** Set before the socket may close (under this lock and the write lock): nothing reads, writes or watches it then. */
    private volatile boolean released;
    private volatile long lastDirectRead;
    /**
     * The inbox keeps as many messages as it may: nobody reads the socket until a receive makes
     * room, so the peer's kernel stops sending and its writer waits (back-pressure). Read
     * without the lock by readers; set under it.
     */
    private volatile boolean inputHeld;
    /** The socket reported an error or hang-up: a gone peer waits for nothing, so input is never held again. */
    private boolean peerGone;

    SocketInterest(NativeSocket socket, CompletionLoop loop, ChannelBase channel, ReentrantLock reading,
                   Runnable afterRewatch) {
        this.socket = socket;
        this.loop = loop;
        this.engine = loop.engine();
        this.channel = channel;
        this.reading = reading;
        this.afterRewatch = afterRewatch;
    }

    /** Whether the socket is released: it may be closed, and nothing may touch it. */
    boolean released() {
        return released;
    }

    /** Under the write lock: nothing watches the socket from now on. */
    void release() {
        synchronized (lock) {
            if (socket.isOpen()) {
                engine.unwatch(socket.fd());
            }
            released = true;
        }
    }

    // ---- output ----------------------------------------------------------------------------

    /** Under the write lock: the loop is told when the socket has room, for what is queued. */
    void askForWrites() throws LinuxCallException {
        synchronized (lock) {
            if (!writeInterest) {
                writeInterest = true;
                engine.changeEvents(socket.fd(), watchedEvents());
            }
        }
    }

    /** Under the write lock: the queue is empty, so room in the socket is of no interest now. */
    void writesDone() throws LinuxCallException {
        synchronized (lock) {
            if (writeInterest) {
                writeInterest = false;
                engine.changeEvents(socket.fd(), watchedEvents());
            }
        }
    }

    // ---- input: held while the inbox is full ---------------------------------------------

    /**
     * Under the reading lock: the inbox is full; the socket's input waits in the kernel (IN leaves
     * the epoll set). True when this began the hold.
     */
    boolean holdInput() {
        synchronized (lock) {
            if (peerGone || inputHeld) {
                return false;
            }
            inputHeld = true;
            if (!released) {
                applyWatchedEvents();
            }
            return true;
        }
    }

    /** Loop thread: a receive made room (or the peer is gone), so the input is read again. True when it was held. */
    boolean releaseInput(boolean forGood) {
        synchronized (lock) {
            peerGone |= forGood;
            if (!inputHeld) {
                return false;
            }
            inputHeld = false;
            if (!released) {
                applyWatchedEvents();
            }
            return true;
        }
    }

    /** Whether the input waits for a receive to make room in the inbox. */
    boolean inputHeld() {
        return inputHeld;
    }

    // ---- input: the loop, the loop's timer, or a receiving thread ----------------------------

    /** The loop watches the socket's input again (a listener is served, or other receives wait). */
    void watchInput() {
        synchronized (lock) {
            watchInputLocked();
        }
    }

    /**
     * Under the reading lock: the loop stops watching the socket's input, and with no write
     * waiting the socket leaves the loop's epoll set, which would otherwise cost each wake-up of
     * the reading thread the set's callback. False if the channel is going.
     */
    boolean takeInput() {
        synchronized (lock) {
            if (released || channel.endCause() != null) {
                return false;
            }
            try { // the linger timer starts as the read ends (lingerThenWatch)
                if (inputWatched) {
                    inputWatched = false;
                    engine.changeEvents(socket.fd(), watchedEvents());
                }
                return true;
            } catch (RuntimeException e) { // the loop or the socket is going: leave the reading to the loop
                inputWatched = true;
                return false;
            }
        }
    }

    /** In a pass: the socket leaves the epoll set for the loop to poll it; false if it stays (the caller starts no timer). */
    boolean startPolling() {
        synchronized (lock) {
            if (!inputWatched || polling || released) {
                return false;
            }
            polling = true;
            try {
                engine.changeEvents(socket.fd(), watchedEvents());
                return true;
            } catch (RuntimeException e) { // the loop or the socket is going
                polling = false;
                return false;
            }
        }
    }

    /** For a polling timer's look: whether it goes on, and who has the input. */
    Look lookAtPolledInput() {
        synchronized (lock) {
            if (!polling || released) {
                return Look.NONE;
            }
            return inputWatched ? Look.READ : Look.TAKEN;
        }
    }

    /** The polling ended: the socket rejoins the epoll set (what came meanwhile is reported at once). */
    void stopPolling() {
        synchronized (lock) {
            polling = false;
            if (inputWatched && !released) {
                applyWatchedEvents();
            }
        }
    }

    /** A receiving thread's direct read ends now: the linger counts from here. */
    void directReadEnded() {
        lastDirectRead = System.nanoTime();
    }

    /**
     * After a direct read, with the reading lock let go: starts the linger timer unless it runs
     * (reads that follow each other keep it running). Only after the unlock: a timer that found
     * the lock held, and stopped, ran before it, so this sees what that timer left.
     */
    void lingerThenWatch() {
        synchronized (lock) {
            if (inputWatched || rewatchScheduled || released) {
                return;
            }
            try {
                loop.schedule(Duration.ofNanos(DIRECT_LINGER_NANOS), rewatchAfterLinger);
                rewatchScheduled = true;
            } catch (RuntimeException e) { // the loop is going, and the channel with it
                LOG.debug("the linger timer did not start: {}", e.getMessage());
            }
        }
    }

    /**
     * Loop thread, a timer: gives the socket's input back to the loop once no receive read it for
     * a while. Once a thread has waited in its read for that long the timer stops, and that
     * thread starts it again as it leaves ({@link #lingerThenWatch}): a receive waiting on an idle
     * channel wakes the loop a couple of times, not every millisecond.
     */
    private void rewatchAfterLinger() {
        long idle = System.nanoTime() - lastDirectRead;
        synchronized (lock) {
            if (released) {
                return;
            }
            if (idle < DIRECT_LINGER_NANOS) { // a receive read it lately, and another may be reading now
                loop.schedule(Duration.ofNanos(Math.max(DIRECT_LINGER_NANOS - idle, 1_000_000L)), rewatchAfterLinger);
                return;
            }
            rewatchScheduled = false;
            if (reading.isLocked()) { // one thread has waited in its read since the last read ended
                return;
            }
            watchInputLocked();
        }
        afterRewatch.run();
    }

    private void watchInputLocked() {
        if (inputWatched || released) {
            return;
        }
        inputWatched = true;
        applyWatchedEvents();
    }

    /** Sets the socket's epoll entry to what {@link #watchedEvents} says; a failure means the channel is going. */
    private void applyWatchedEvents() {
        try {
            engine.changeEvents(socket.fd(), watchedEvents());
        } catch (RuntimeException e) {
            LOG.debug("watching the socket again failed: {}", e.getMessage());
        }
    }

    /** What the loop watches the socket for now. */
    private int watchedEvents() {
        return (inputWatched && !polling && !inputHeld ? Epoll.IN : 0) | (writeInterest ? Epoll.OUT : 0);
    }
}
