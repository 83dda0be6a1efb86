package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_context;
import dev.verbs4j.bindings.verbs_context;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@code struct verbs_context} sits in memory just before the {@code ibv_context} it embeds, and
 * its ops are valid only when the context says it is extended and the provider's {@code sz}
 * covers the op (what the C macro verbs_get_ctx_op checks).
 */
final class ExtendedContext {
    /** __VERBS_ABI_IS_EXTENDED: abi_compat holds (void *) UINTPTR_MAX. */
    private static final long ABI_IS_EXTENDED = -1L;

    private ExtendedContext() {}

    /** The function pointer at {@code opOffset} in verbs_context, or null when not provided. */
    static MemorySegment function(MemorySegment ctx, long opOffset) {
        if (ibv_context.abi_compat(ctx).address() != ABI_IS_EXTENDED) {
            return null;
        }
        long contextOffset = verbs_context.context$offset();
        MemorySegment vctx = MemorySegment.ofAddress(ctx.address() - contextOffset)
                .reinterpret(verbs_context.sizeof());
        long size = verbs_context.sz(vctx); // size_t; never near 2^63
        if (size < verbs_context.sizeof() - opOffset) {
            return null;
        }
        MemorySegment fn = vctx.get(ValueLayout.ADDRESS, opOffset);
        return fn.equals(MemorySegment.NULL) ? null : fn;
    }
}
