package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_context;
import dev.verbs4j.bindings.ibv_context_ops;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
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
 * AArch64). The callers check that their memory is still open first; closing it while a post
 * or poll runs on another thread is already forbidden.
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
    /** int post_recv(ibv_qp *, ibv_recv_wr *, ibv_recv_wr **bad), pointers as addresses; post_srq_recv alike. */
    static final MethodHandle POST_RECV = downcall(THREE_POINTERS);

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
    }

    /** False when the provider leaves this op NULL. */
    static boolean provided(MemorySegment fn) {
        return !fn.equals(MemorySegment.NULL);
    }

    private static MethodHandle downcall(FunctionDescriptor descriptor) {
        return NativeLibraries.LINKER.downcallHandle(descriptor, CRITICAL);
    }
}
