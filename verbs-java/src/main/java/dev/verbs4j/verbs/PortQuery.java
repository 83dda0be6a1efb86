package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_context;
import dev.verbs4j.bindings.ibv_port_attr;
import dev.verbs4j.bindings.verbs_context;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * ibv_query_port is a macro over a static inline: it calls the provider's
 * {@code verbs_context.query_port} with the full struct size when the context is extended, else
 * the exported compat symbol, which fills only the older, shorter struct.
 */
final class PortQuery {
    private static final MethodHandle COMPAT_QUERY_PORT =
            NativeLibraries.verbs("ibv_query_port", Rdma.ibv_query_port$descriptor());

    private PortQuery() {}

    static PortAttributes query(Context context, int port) {
        MemorySegment ctx = context.pointer();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_port_attr.layout()); // zeroed
            MemorySegment queryPort = ExtendedContext.function(ctx, verbs_context.query_port$offset());
            int rc;
            MemorySegment errno = ErrnoCapture.allocate(arena);
            if (queryPort != null) {
                rc = verbs_context.query_port.invoke(queryPort, ctx, (byte) port, attr, ibv_port_attr.sizeof());
            } else {
                rc = (int) COMPAT_QUERY_PORT.invokeExact(errno, ctx, (byte) port, attr);
            }
            Calls.checkStatus(rc, errno, "ibv_query_port",
                    "cannot query port " + port + " of " + context.name());
            return PortAttributes.from(port, attr);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }
}
