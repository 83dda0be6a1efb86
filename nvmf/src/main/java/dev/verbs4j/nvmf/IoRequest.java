package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.NvmeStatusException;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One asynchronous I/O as a future that is made once and submitted again and again: the
 * allocation-free counterpart of {@link NvmfController#readAsync}'s {@code CompletableFuture}.
 * Get one from {@link NvmfController#newRequest()}, submit it with
 * {@link NvmfController#submitRead(IoRequest, int, long, int, IoBuffer, long)} or
 * {@link NvmfController#submitWrite(IoRequest, int, long, int, IoBuffer, long)}, then wait with
 * {@link #await()} or {@link #get()}.
 *
 * <pre>{@code
 * IoRequest r = c.newRequest();
 * for (long lba = 0; lba < blocks; lba += 8) {
 *     c.submitRead(r, 1, lba, 8, buf, 0).await();
 * }
 * }</pre>
 *
 * <p>The thread that polls completes it: the caller's {@link NvmfController#poll()}, or the
 * progress thread's completion loop. Waiting drives the completion itself: without a progress
 * thread it polls until the I/O is done; with one it runs the loop's passes while it waits, or,
 * when the loop's thread runs them, parks until that thread completes it.
 *
 * <p>Lifecycle: new (never submitted), in flight, done. Submitting a done request starts it
 * over; submitting one still in flight throws {@link IllegalStateException}; a submission that
 * throws leaves it as if never submitted. Thread-safety: any
 * thread may wait and ask; one thread at a time should submit it. Never wait inside an
 * {@link IoCallback} or on the progress thread: that thread is the one that would complete it.
 */
public final class IoRequest implements Future<Void> {
    private static final int NEW = 0;
    private static final int IN_FLIGHT = 1;
    private static final int DONE = 2;
    /** A second waiter parks in naps of this length: only one thread is unparked by name. */
    private static final long SHARED_WAIT_NAP_NANOS = 100_000;
    /** How long an untimed wait drives the loop before it parks (a completion unparks it). */
    private static final long UNTIMED_DRIVE_NANOS = TimeUnit.HOURS.toNanos(1);
    private static final VarHandle STATE;
    private static final VarHandle WAITER;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(IoRequest.class, "state", int.class);
            WAITER = l.findVarHandle(IoRequest.class, "waiter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NvmfController controller;
    private final IoCallback completion = (tag, failure) -> complete(failure);
    private final BooleanSupplier done = this::isDone;
    private volatile int state;
    private volatile Thread waiter;
    private NvmfException error; // written before the volatile write of DONE, read after its read

    IoRequest(NvmfController controller) {
        this.controller = controller;
    }

    NvmfController controller() {
        return controller;
    }

    /** The callback the queue completes this request through; made once with the request. */
    IoCallback completion() {
        return completion;
    }

    /** Moves a new or done request in flight, before its command is posted. */
    void begin() {
        int s = state;
        if (s == IN_FLIGHT || !STATE.compareAndSet(this, s, IN_FLIGHT)) {
            throw new IllegalStateException("this request is still in flight: wait for it before submitting it again");
        }
        error = null;
    }

    /** The submission threw before anything was posted: nothing will complete this request. */
    void abandon() {
        state = NEW;
    }

    private void complete(NvmfException failure) {
        error = failure;
        state = DONE;
        Thread w = waiter; // read after the state write: a waiter that missed DONE is unparked
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /**
     * Waits until the I/O is done, polling the controller (no progress thread) or parked (with
     * one). An interrupt does not end the wait (the command cannot be withdrawn, and its buffer
     * is in use until it completes); the thread's interrupt status is kept.
     *
     * @throws NvmeStatusException    when the target completed the command with an error status
     * @throws NvmfTransportException when the connection broke before it completed
     * @throws IllegalStateException  when the request was never submitted, or the caller is the
     *                                controller's progress thread
     */
    public void await() {
        try {
            waitUntilDone(false, 0, false);
        } catch (InterruptedException impossible) {
            throw new AssertionError(impossible);
        }
        NvmfException e = error;
        if (e != null) {
            throw e;
        }
    }

    /**
     * Waits until the I/O is done, as {@link #await()} does, but interruptibly.
     *
     * @return null
     * @throws ExecutionException    wrapping the {@link NvmfException} that failed the I/O
     * @throws InterruptedException  when the thread is interrupted while waiting (the I/O goes on)
     * @throws IllegalStateException when the request was never submitted, or the caller is the
     *                               controller's progress thread
     */
    @Override
    public Void get() throws InterruptedException, ExecutionException {
        waitUntilDone(false, 0, true);
        return outcome();
    }

    /**
     * Waits at most {@code timeout} until the I/O is done, as {@link #get()} does.
     *
     * @param timeout how long to wait
     * @param unit    the unit of {@code timeout}
     * @return null
     * @throws ExecutionException    wrapping the {@link NvmfException} that failed the I/O
     * @throws InterruptedException  when the thread is interrupted while waiting (the I/O goes on)
     * @throws TimeoutException      when the I/O is still in flight after {@code timeout}
     * @throws IllegalStateException when the request was never submitted, or the caller is the
     *                               controller's progress thread
     */
    @Override
    public Void get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (!waitUntilDone(true, System.nanoTime() + unit.toNanos(timeout), true)) {
            throw new TimeoutException("the I/O is still in flight after " + timeout + " " + unit);
        }
        return outcome();
    }

    private Void outcome() throws ExecutionException {
        NvmfException e = error;
        if (e != null) {
            throw new ExecutionException(e);
        }
        return null;
    }

    /**
     * Whether the I/O has completed, successfully or not. A request never submitted is not done.
     *
     * @return true once the completion has arrived, until the request is submitted again
     */
    @Override
    public boolean isDone() {
        return state == DONE;
    }

    /**
     * Does nothing: an NVMe command, once posted, cannot be withdrawn.
     *
     * @param mayInterruptIfRunning ignored
     * @return false, always
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    /**
     * Never true: see {@link #cancel}.
     *
     * @return false
     */
    @Override
    public boolean isCancelled() {
        return false;
    }

    /** Returns false on the deadline (only when {@code timed}); true once done. */
    private boolean waitUntilDone(boolean timed, long deadline, boolean interruptible) throws InterruptedException {
        int s = state;
        if (s == DONE) {
            return true;
        }
        if (s == NEW) {
            throw new IllegalStateException("this request was never submitted");
        }
        ControllerLoop loop = controller.loop();
        if (loop == null) {
            return pollUntilDone(timed, deadline, interruptible);
        }
        if (loop.inLoop()) {
            throw new IllegalStateException("the progress thread cannot wait for an I/O: it is the thread that completes it");
        }
        // Run the loop's passes here while waiting; if another thread runs them, park until it completes this.
        loop.engine().drive(done, timed ? Math.max(0, deadline - System.nanoTime()) : UNTIMED_DRIVE_NANOS);
        return state == DONE || park(timed, deadline, interruptible);
    }

    /** Without a progress thread nobody else completes this request: the waiter polls. */
    private boolean pollUntilDone(boolean timed, long deadline, boolean interruptible) throws InterruptedException {
        while (state != DONE) {
            if (controller.poll() > 0) {
                continue;
            }
            if (interruptible && Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (timed && System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    private boolean park(boolean timed, long deadline, boolean interruptible) throws InterruptedException {
        Thread me = Thread.currentThread();
        boolean named = WAITER.compareAndSet(this, null, me);
        boolean interrupted = false;
        try {
            while (state != DONE) {
                long left = timed ? deadline - System.nanoTime() : Long.MAX_VALUE;
                if (left <= 0) {
                    return false;
                }
                if (named && !timed) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, named ? left : Math.min(left, SHARED_WAIT_NAP_NANOS));
                }
                if (Thread.interrupted()) {
                    if (interruptible) {
                        throw new InterruptedException();
                    }
                    interrupted = true; // park returns at once while the flag is set: keep it aside
                }
            }
            return true;
        } finally {
            if (named) {
                waiter = null;
            }
            if (interrupted) {
                me.interrupt();
            }
        }
    }
}
