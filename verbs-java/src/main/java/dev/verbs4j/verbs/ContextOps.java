package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_context;
import dev.verbs4j.bindings.ibv_context_ops;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The data-path verbs. ibv_post_send, ibv_post_recv, ibv_poll_cq, ibv_req_notify_cq and
 * ibv_post_srq_recv are static inline functions in verbs.h that call through
 * {@code ctx->ops}; jextract drops them, so we read the provider's function pointers once per
 * context and call them through one downcall handle per signature.
 *
 * <p>The handles are static finals taking the function pointer as their first argument: the JIT
 * then treats them as constants and compiles each call into a direct native call. (A handle
 * bound per context and kept in an instance field is opaque to the JIT and costs a generic
 * method-handle dispatch on every poll.) The functions never block and never call back into
 * Java, so they are linked as critical: no thread-state transition per call.
 *
 * <p>The hot three (poll_cq, post_send, post_recv) take their pointer arguments as raw
 * {@code long} addresses, not MemorySegments: a segment argument is unboxed and, when it comes
 * from a shared arena (work-request chains and completion batches do), acquired and released
 * around the call: two atomic updates per call, which cost more than an empty poll itself. A
 * pointer and a {@code long} are passed alike on the LP64 ABIs verbs4j runs on (x86-64,
 * AArch64). The callers check that their memory is still open first; the QP, SRQ or CQ itself
 * is held open for the call by its use count (NativeObject), and a post with inline data keeps
 * that memory's scope acquired by passing it as an extra argument (POST_SEND_KEEPING_ALIVE).
 *
 * <p>A handle taking the function pointer as an argument still checks and unboxes that
 * segment on every call, which the C1 compiler does not fold away. The first provider's hot
 * functions are therefore also bound into constant handles ({@link FirstProvider}); calls to
 * them work on a constant and cost less (an empty CompletionQueue.poll under C1, rig: 220 → 170 ns).
 * A process nearly always opens devices of one provider; any other provider's functions go
 * through the unbound handles.
 *
 * <p>What is left is the JDK's: even a bound handle runs its target checks on every call
 * ({@code SharedUtils.checkSymbol} → {@code AbstractMemorySegmentImpl.equals},
 * {@code SharedUtils.checkNative}), which C1 leaves as real calls (-XX:+PrintInlining) and C2
 * folds. benchmarks' RawPollBenchmark measures that floor.
 */
final class ContextOps {
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);
    /** (pointer, pointer, pointer) -> int, pointers as addresses */
    private static final FunctionDescriptor THREE_POINTERS = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG,
            JAVA_LONG);

    /** int poll_cq(ibv_cq *, int num_entries, ibv_wc *), pointers as addresses */
    static final MethodHandle POLL_CQ = downcall(FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_LONG));
    /** int req_notify_cq(ibv_cq *, int solicited_only) */
    static final MethodHandle REQ_NOTIFY_CQ = downcall(ibv_context_ops.req_notify_cq.descriptor());
    /** int post_send(ibv_qp *, ibv_send_wr *, ibv_send_wr **bad), pointers as addresses */
    static final MethodHandle POST_SEND = downcall(THREE_POINTERS);
    /**
     * post_send with a fourth argument the function never reads: a segment, which the linker
     * keeps acquired for the duration of the call, so the arena it belongs to cannot be closed
     * by another thread while the provider copies inline data out of it (the close then throws).
     * On x86-64 and AArch64 extra arguments travel in registers the callee ignores.
     */
    static final MethodHandle POST_SEND_KEEPING_ALIVE = downcall(FunctionDescriptor.of(JAVA_INT, JAVA_LONG,
            JAVA_LONG, JAVA_LONG, ADDRESS));
    /** int post_recv(ibv_qp *, ibv_recv_wr *, ibv_recv_wr **bad), pointers as addresses; post_srq_recv alike. */
    static final MethodHandle POST_RECV = downcall(THREE_POINTERS);

    /** The first context's functions, which {@link FirstProvider} binds when first used. */
    private static volatile ContextOps first;

    final MemorySegment pollCq;
    final MemorySegment reqNotifyCq;
    final MemorySegment postSend;
    final MemorySegment postRecv;
    final MemorySegment postSrqRecv;

    ContextOps(MemorySegment ctx) {
        MemorySegment ops = ibv_context.ops(ctx);
        pollCq = ibv_context_ops.poll_cq(ops);
        reqNotifyCq = ibv_context_ops.req_notify_cq(ops);
        postSend = ibv_context_ops.post_send(ops);
        postRecv = ibv_context_ops.post_recv(ops);
        postSrqRecv = ibv_context_ops.post_srq_recv(ops);
        synchronized (ContextOps.class) {
            if (first == null) {
                first = this;
            }
        }
    }

    /** poll_cq at {@code fn} (whose address is {@code fnAt}). */
    static int pollCq(MemorySegment fn, long fnAt, long cq, int max, long wc) throws Throwable {
        return fnAt == FirstProvider.POLL_CQ_AT
                ? (int) FirstProvider.POLL_CQ.invokeExact(cq, max, wc)
                : (int) POLL_CQ.invokeExact(fn, cq, max, wc);
    }

    /** post_send at {@code fn} (whose address is {@code fnAt}). */
    static int postSend(MemorySegment fn, long fnAt, long qp, long wr, long badWr) throws Throwable {
        return fnAt == FirstProvider.POST_SEND_AT
                ? (int) FirstProvider.POST_SEND.invokeExact(qp, wr, badWr)
                : (int) POST_SEND.invokeExact(fn, qp, wr, badWr);
    }

    /** post_send at {@code fn}, keeping {@code memory}'s scope acquired during the call. */
    static int postSendKeepingAlive(MemorySegment fn, long qp, long wr, long badWr, MemorySegment memory)
            throws Throwable {
        return (int) POST_SEND_KEEPING_ALIVE.invokeExact(fn, qp, wr, badWr, memory);
    }

    /** post_recv or post_srq_recv at {@code fn} (whose address is {@code fnAt}). */
    static int postRecv(MemorySegment fn, long fnAt, long target, long wr, long badWr) throws Throwable {
        // the QP's case first and alone: the method stays small enough for C1 to inline
        return fnAt == FirstProvider.POST_RECV_AT
                ? (int) FirstProvider.POST_RECV.invokeExact(target, wr, badWr)
                : postSrqOrOtherRecv(fn, fnAt, target, wr, badWr);
    }

    private static int postSrqOrOtherRecv(MemorySegment fn, long fnAt, long target, long wr, long badWr)
            throws Throwable {
        return fnAt == FirstProvider.POST_SRQ_RECV_AT
                ? (int) FirstProvider.POST_SRQ_RECV.invokeExact(target, wr, badWr)
                : (int) POST_RECV.invokeExact(fn, target, wr, badWr);
    }

    /**
     * Handles bound to the first context's functions, built when a data-path call first runs
     * (every such call comes from a context, so {@code first} is set by then). Static finals,
     * so the JIT sees them and the addresses as constants. A NULL function gets address -1,
     * which no call matches (callers refuse a NULL op before calling).
     */
    private static final class FirstProvider {
        static final long POLL_CQ_AT = at(first.pollCq);
        static final MethodHandle POLL_CQ = bind(first.pollCq, ContextOps.POLL_CQ);
        static final long POST_SEND_AT = at(first.postSend);
        static final MethodHandle POST_SEND = bind(first.postSend, ContextOps.POST_SEND);
        static final long POST_RECV_AT = at(first.postRecv);
        static final MethodHandle POST_RECV = bind(first.postRecv, ContextOps.POST_RECV);
        static final long POST_SRQ_RECV_AT = at(first.postSrqRecv);
        static final MethodHandle POST_SRQ_RECV = bind(first.postSrqRecv, ContextOps.POST_RECV);

        private static long at(MemorySegment fn) {
            return provided(fn) ? fn.address() : -1;
        }

        private static MethodHandle bind(MemorySegment fn, MethodHandle unbound) {
            return provided(fn) ? MethodHandles.insertArguments(unbound, 0, fn) : null;
        }
    }

    /** False when the provider leaves this op NULL. */
    static boolean provided(MemorySegment fn) {
        return !fn.equals(MemorySegment.NULL);
    }

    private static MethodHandle downcall(FunctionDescriptor descriptor) {
        return NativeLibraries.LINKER.downcallHandle(descriptor, CRITICAL);
    }
}
