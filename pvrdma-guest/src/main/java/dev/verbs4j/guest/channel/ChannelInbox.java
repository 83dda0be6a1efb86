package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.loop.spi.LoopEngine;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;

/**
 * The receive side both transports share: messages that arrived wait for receives (futures, or
 * threads blocked in a receive into their own buffer, in the order they asked), or go straight
 * to a listener. When the channel ends, messages already here can still be received; only then
 * do receives fail with the reason the channel ended.
 *
 * <p>It keeps a bounded number of bytes of messages nobody asked for yet: once it keeps that many,
 * {@link #deliver} says so and the transport takes no more from the peer (RDMA holds its receive
 * slots, shm leaves the ring, TCP the socket), so the peer's sends wait for credits, as they
 * would for a slow network. A receive that makes room has the transport go on ({@link #onRoomAgain}).
 */
public final class ChannelInbox {
    private final LoopEngine loop;
    /** The loop's task queue: how the transport is told to go on from a receiving thread. */
    private final Executor loopTasks;
    private final ArrayDeque<ChannelMessage> arrived = new ArrayDeque<>();
    /** The bytes it keeps for receives to come before the transport holds back the rest. */
    private final long backlog;
    /** What the messages in {@link #arrived} count against it; under the lock. */
    private long kept;
    /** The transport holds back (its delivery found the inbox full); under the lock. */
    private boolean heldBack;
    /** How the transport goes on; runs in the loop's passes. */
    private Runnable roomAgain = () -> {};
    /** Receive futures and {@link BufferWaiter}s, in the order they asked. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** Written under the lock; read without it on the delivery path (the common case needs no lock). */
    private volatile ChannelListener listener;
    private ChannelException end;
    private boolean endNotified;

    ChannelInbox(LoopEngine loop, Executor loopTasks, long backlog) {
        this.loop = loop;
        this.loopTasks = loopTasks;
        this.backlog = backlog;
    }

    /** What a kept message counts: its bytes and about what the copy's objects take beside them. */
    private static long cost(int length) {
        return length + 64L;
    }

    /** What the transport does once receives made room after {@link #deliver} said it holds enough; loop thread. */
    public void onRoomAgain(Runnable goOn) {
        this.roomAgain = goOn;
    }

    /** Takes the oldest kept message, under the lock; the transport is told to go on when that made room. */
    private ChannelMessage take() {
        ChannelMessage m = arrived.poll();
        if (m != null) {
            kept -= cost(m.length());
            if (heldBack && kept < backlog) {
                heldBack = false;
                goOnLater();
            }
        }
        return m;
    }

    /** In the loop's passes; a loop that is gone took the channel with it. */
    private void goOnLater() {
        try {
            loopTasks.execute(roomAgain);
        } catch (RuntimeException stopped) {
            // the loop is gone, and the channel with it
        }
    }

    CompletableFuture<ChannelMessage> receive() {
        synchronized (this) {
            ChannelMessage m = take();
            if (m != null) {
                return CompletableFuture.completedFuture(m);
            }
            if (end == null) {
                CompletableFuture<ChannelMessage> f = loop.newFuture();
                waiting.add(f);
                return f;
            }
        }
        return CompletableFuture.failedFuture(end);
    }

    /** How a receiving thread waits until its waiter is done, at most {@code timeoutNanos}; it may return early. */
    @FunctionalInterface
    interface MessageWait {
        void await(BufferWaiter waiter, long timeoutNanos);
    }

    /**
     * Waits until a message is copied into {@code into}: first as {@code wait} does (driving the
     * loop, as a future's waiter does, or reading the socket), then parked until the message
     * comes or the time is up; false when none came within {@code timeoutNanos}, and then none is
     * taken.
     */
    boolean receive(ReceiveBuffer into, long timeoutNanos, MessageWait wait) {
        if (loop.inLoop()) {
            throw new IllegalStateException("a blocking receive on the completion loop's thread (or in a listener) "
                    + "would stall the loop: use receive() and a callback, or a listener");
        }
        BufferWaiter waiter = BufferWaiter.forThisThread();
        synchronized (this) {
            ChannelMessage m = take();
            if (m != null) {
                into.fill(m.data(), 0, m.length(), m.hasImmediate(), m.immediate());
                return true;
            }
            if (end != null) {
                throw BufferWaiter.failure(end);
            }
            waiter.arm(into);
            waiting.add(waiter);
        }
        long start = System.nanoTime();
        wait.await(waiter, timeoutNanos);
        while (!waiter.getAsBoolean()) {
            long left = timeoutNanos - (System.nanoTime() - start);
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                synchronized (this) {
                    if (!waiter.getAsBoolean()) {
                        waiting.remove(waiter); // before a message could be copied in: nothing is lost
                        waiter.disarm();
                        return false;
                    }
                }
                break; // filled (or failed) meanwhile
            }
            LockSupport.parkNanos(this, left);
        }
        return waiter.takeResult();
    }

    /**
     * A message read straight into {@code waiter}'s buffer is its: true when that waiter is the
     * first in line (and no listener takes messages); else the caller delivers it as any other.
     */
    public boolean fillInPlace(BufferWaiter waiter, int length, boolean hasImmediate, int immediate) {
        synchronized (this) {
            if (listener != null || waiting.peekFirst() != waiter) {
                return false;
            }
            waiting.pollFirst();
            waiter.filledInPlace(length, hasImmediate, immediate);
        }
        waiter.wake();
        return true;
    }

    /** Whether a receive (a future or a thread) waits for a message. */
    public synchronized boolean hasWaiters() {
        return !waiting.isEmpty();
    }

    void setListener(Channel channel, ChannelListener l) {
        ArrayDeque<ChannelMessage> backlog;
        boolean ended;
        synchronized (this) {
            listener = l;
            backlog = new ArrayDeque<>(arrived);
            arrived.clear();
            kept = 0;
            if (heldBack) {
                heldBack = false;
                goOnLater();
            }
            ended = end != null && !endNotified;
            endNotified |= ended;
        }
        for (ChannelMessage m : backlog) {
            deliverTo(l, channel, m); // arrived before the listener: through the same method as the rest
        }
        if (ended) {
            l.onClosed(channel, orderly(end) ? null : end);
        }
    }

    /**
     * A whole message arrived at {@code [offset, offset + length)} of {@code buffer}, valid
     * during this call (loop thread): a listener reads it there, a receive gets a copy, or a copy
     * is kept for the next receive.
     *
     * @return false when the copy kept made the inbox full: the transport takes no more messages
     *         until the runnable of {@link #onRoomAgain} runs
     */
    public boolean deliver(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                           int immediate) {
        ChannelListener l = listener;
        if (l != null) {
            l.onMessage(channel, buffer, offset, length, hasImmediate, immediate);
            return true;
        }
        Object w;
        synchronized (this) {
            l = listener;
            w = l == null ? waiting.poll() : null;
            if (l == null && w == null) {
                arrived.add(ChannelMessage.copyOf(buffer, offset, length, hasImmediate, immediate));
                kept += cost(length);
                heldBack = kept >= backlog;
                return !heldBack;
            }
            if (w instanceof BufferWaiter b) {
                b.fill(buffer, offset, length, hasImmediate, immediate); // under the lock: a timing-out waiter sees it whole or not at all
            }
        }
        if (w instanceof BufferWaiter b) {
            b.wake();
        } else if (l != null) {
            deliverTo(l, channel, ChannelMessage.copyOf(buffer, offset, length, hasImmediate, immediate)); // set meanwhile
        } else {
            @SuppressWarnings("unchecked")
            CompletableFuture<ChannelMessage> f = (CompletableFuture<ChannelMessage>) w;
            f.complete(ChannelMessage.copyOf(buffer, offset, length, hasImmediate, immediate));
        }
        return true;
    }

    /**
     * A message kept as a copy goes to a listener through the in-place method too, which a
     * listener that reads in place overrides (and need not implement the other); the default
     * one copies it once more.
     */
    private static void deliverTo(ChannelListener l, Channel channel, ChannelMessage m) {
        l.onMessage(channel, m.data(), 0, m.length(), m.hasImmediate(), m.immediate());
    }

    /** A refused offer's send queue has room again: the listener hears it (loop's passes). */
    void sendSpace(Channel channel) {
        ChannelListener l = listener;
        if (l != null) {
            l.onSendSpace(channel);
        }
    }

    /** The channel ended; {@code cause} says how (PEER_CLOSED/CLOSED for orderly ends). */
    void end(Channel channel, ChannelException cause) {
        ArrayDeque<Object> toFail;
        ChannelListener l;
        synchronized (this) {
            if (end != null) {
                return;
            }
            end = cause;
            toFail = new ArrayDeque<>(waiting.size());
            for (Object w : waiting) {
                if (w instanceof BufferWaiter b) {
                    b.fail(cause); // under the lock, as a time-out gives up under it: one or the other
                } else {
                    toFail.add(w);
                }
            }
            waiting.clear();
            l = listener;
            endNotified = l != null;
        }
        for (Object f : toFail) {
            ((CompletableFuture<?>) f).completeExceptionally(cause);
        }
        if (l != null) {
            l.onClosed(channel, orderly(cause) ? null : cause);
        }
    }

    private static boolean orderly(ChannelException e) {
        return e.error() == ChannelError.PEER_CLOSED || e.error() == ChannelError.CLOSED;
    }
}
