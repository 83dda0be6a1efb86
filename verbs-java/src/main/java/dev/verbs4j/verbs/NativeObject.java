package dev.verbs4j.verbs;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Base of every verbs object: owns one native pointer, refuses use after close, and refuses to
 * close while objects created from it are still open (see the package documentation).
 *
 * <h2>Close racing with use</h2>
 * One state word guards the native object: its sign bit says closed, the rest counts the
 * threads inside a native call on it. A use {@link #enter() enters} (one atomic add, which also
 * tells it whether the object is closed) and {@link #leave() leaves} (one more) around its
 * native call. {@link #close()} first sets the closed bit, so every later use throws
 * {@link IllegalStateException}, then waits for the count to drain before the native object is
 * destroyed: no thread can still be inside the provider with its pointer. The calls counted are
 * the non-blocking ones (post, poll, arm, create, modify, query), so the wait is short.
 *
 * <p>Why not the FFM shared-arena close handshake: it needs the object's memory passed as a
 * segment to every downcall, which acquires and releases the arena's scope around each call, two
 * atomic updates like these, plus a handshake with every Java thread at each close; the state
 * word costs the same on the data path and nothing more at close.
 */
abstract class NativeObject implements AutoCloseable {
    private static final int CLOSED = Integer.MIN_VALUE;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(NativeObject.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String kind;
    private final NativeObject parent;
    private final AtomicInteger openChildren = new AtomicInteger();
    private volatile MemorySegment handle;
    /**
     * handle's address, 0 once closed: the data path's pointer in one field read.
     * {@code handle().address()} is an interface call on the segment, which C1 compiles as a real
     * dispatch on every post and poll.
     */
    private volatile long nativeAddress;
    /** CLOSED bit | number of threads inside a native call on this object (see the class doc) */
    @SuppressWarnings("unused")
    private volatile int state;

    NativeObject(String kind, MemorySegment handle, NativeObject parent) {
        this.kind = kind;
        this.handle = handle;
        this.nativeAddress = handle.address();
        this.parent = parent;
        if (parent != null) {
            parent.openChildren.incrementAndGet();
        }
    }

    /** The native pointer; throws if this object is closed. Safe only inside enter/leave or the object's monitor. */
    final MemorySegment handle() {
        MemorySegment h = handle;
        if (h == null) {
            throw closed();
        }
        return h;
    }

    /**
     * Starts a native call on this object: returns its address, or throws if it is closed (or
     * closing). Every enter that returns must be matched by one {@link #leave()}.
     */
    final long enter() {
        if ((int) STATE.getAndAdd(this, 1) < 0) {
            STATE.getAndAdd(this, -1);
            throw closed();
        }
        return nativeAddress;
    }

    /** Ends a native call begun by {@link #enter()}. */
    final void leave() {
        STATE.getAndAdd(this, -1);
    }

    /** Like {@link #enter()}, for calls that take the pointer as a segment. */
    final MemorySegment enterHandle() {
        enter();
        return handle;
    }

    private IllegalStateException closed() {
        return new IllegalStateException(kind + " is closed");
    }

    /**
     * Whether {@link #close()} has destroyed the native object. Safe from any thread; the answer may be
     * stale by the time the caller acts on it.
     *
     * @return true once closed; a failed close leaves it false
     */
    public final boolean isClosed() {
        return handle == null;
    }

    /**
     * Destroys the native object. Threads calling into it at the same time finish their call
     * first; later calls throw {@link IllegalStateException}. Throws, and leaves the object open
     * and usable, while objects created from it are open or when the verb fails. Idempotent: closing
     * a closed object does nothing. Safe from any thread.
     *
     * @throws IllegalStateException if objects created from this one are still open
     * @throws VerbsException if the destroy verb fails (e.g. EBUSY); the object stays open
     */
    @Override
    public final synchronized void close() {
        MemorySegment h = handle;
        if (h == null) {
            return;
        }
        STATE.getAndBitwiseOr(this, CLOSED);
        closing();
        while (((int) STATE.getVolatile(this) & ~CLOSED) != 0) {
            Thread.onSpinWait(); // a post or poll in progress: they never block
        }
        int children = openChildren.get();
        if (children > 0) {
            STATE.getAndBitwiseAnd(this, ~CLOSED);
            throw new IllegalStateException("cannot close " + kind + ": " + children
                    + " object(s) created from it are still open; close them first");
        }
        try {
            destroy(h);
        } catch (RuntimeException | Error e) {
            STATE.getAndBitwiseAnd(this, ~CLOSED);
            throw e;
        }
        nativeAddress = 0;
        handle = null;
        if (parent != null) {
            parent.openChildren.decrementAndGet();
        }
    }

    /**
     * Called by close once later uses are refused, before it waits for the calls in progress:
     * an object whose calls can block ends them here.
     */
    void closing() {
    }

    /** Releases the native object; throws VerbsException when the verb fails (nothing is lost). */
    abstract void destroy(MemorySegment handle);

    final String kind() {
        return kind;
    }
}
