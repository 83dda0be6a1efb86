package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ReceiveBuffer;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A thread blocked in a receive into its own {@link ReceiveBuffer}, as the inbox queues it. One
 * per thread, reused: a thread waits in one receive at a time, so a receive allocates nothing.
 * The inbox fills or fails it under its lock; {@link #done} publishes that to the waiting thread.
 */
public final class BufferWaiter implements BooleanSupplier {
    private static final ThreadLocal<BufferWaiter> PER_THREAD = ThreadLocal.withInitial(BufferWaiter::new);

    private final Thread thread = Thread.currentThread();
    private ReceiveBuffer target;
    private ChannelException failure;
    private volatile boolean done;

    static BufferWaiter forThisThread() {
        return PER_THREAD.get();
    }

    /** What a receive throws for a channel that ended: a new exception, so the stack says who received. */
    static ChannelException failure(ChannelException end) {
        return new ChannelException(end.error(), end.getMessage(), end);
    }

    /** Waits for a message into {@code into} (under the inbox's lock). */
    void arm(ReceiveBuffer into) {
        target = into;
        failure = null;
        done = false;
    }

    /** Gave up waiting (under the inbox's lock, after leaving its queue). */
    void disarm() {
        target = null;
    }

    /** Under the inbox's lock: the message goes into the waiting thread's buffer. */
    void fill(MemorySegment buffer, long offset, int length, boolean hasImmediate, int immediate) {
        target.fill(buffer, offset, length, hasImmediate, immediate);
        done = true;
    }

    /** The buffer this thread receives into, while it waits. */
    public ReceiveBuffer target() {
        return target;
    }

    /** Under the inbox's lock: the message was read straight into the waiting thread's buffer. */
    void filledInPlace(int length, boolean hasImmediate, int immediate) {
        target.filled(length, hasImmediate, immediate);
        done = true;
    }

    /** Under the inbox's lock: the channel ended before a message came. */
    void fail(ChannelException cause) {
        failure = cause;
        done = true;
        wake();
    }

    /** Unparks the waiting thread, unless it filled its own buffer while it drove the loop. */
    void wake() {
        if (Thread.currentThread() != thread) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public boolean getAsBoolean() {
        return done;
    }

    /** After {@link #done}: true with the message in the buffer, or the channel's end thrown. */
    boolean takeResult() {
        target = null;
        if (failure != null) {
            throw failure(failure);
        }
        return true;
    }
}
