package dev.verbs4j.verbs;

import dev.verbs4j.unix.ReadableWait;
import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_async_event;
import dev.verbs4j.bindings.ibv_context;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers a context's async events (ibv_get_async_event, then ibv_ack_async_event after the
 * listener returns) on a daemon thread until closed, from
 * {@link Context#asyncEvents(AsyncEventListener)}.
 *
 * <p><b>Ownership.</b> The caller owns it and closes it before the {@link Context} (the context
 * refuses to close while it runs). Closing stops the thread, which notices within about 100 ms,
 * and waits for it up to 5 s; do not call it from the listener. Start one per context: two
 * readers would split the device's events between them.
 *
 * <p><b>Threads.</b> The listener runs on the reader's own thread, one event at a time; close may
 * be called from any other thread.
 */
public final class AsyncEvents extends NativeObject {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncEvents.class);
    private static final MethodHandle GET_ASYNC_EVENT =
            NativeLibraries.verbs("ibv_get_async_event", Rdma.ibv_get_async_event$descriptor());
    private static final Duration WAKE_UP = Duration.ofMillis(100);

    private final Context context;
    private final AsyncEventListener listener;
    private final Thread thread;
    private volatile boolean running = true;

    AsyncEvents(Context context, AsyncEventListener listener) {
        super("async event delivery", context.pointer(), context);
        this.context = context;
        this.listener = listener;
        this.thread = Thread.ofPlatform().daemon().name("verbs4j-async-" + context.name()).start(this::loop);
    }

    private void loop() {
        MemorySegment ctx = context.pointer();
        int fd = ibv_context.async_fd(ctx);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment event = arena.allocate(ibv_async_event.layout());
            while (running) {
                if (!ReadableWait.awaitReadable(fd, WAKE_UP)) {
                    continue;
                }
                AsyncEvent e = take(ctx, errno, event);
                if (e == null) {
                    continue;
                }
                try {
                    listener.onEvent(e);
                } catch (RuntimeException ex) {
                    LOG.warn("async event listener failed on {}", e, ex);
                }
            }
        } catch (Throwable t) {
            if (running) {
                LOG.error("async event delivery for {} stopped", context.name(), t);
            }
        }
    }

    /**
     * Takes one event of context {@code ctx} into {@code event} (scratch memory of the event's
     * layout) and acknowledges it at once: the event is a copy, nothing waits for the
     * acknowledgement but the destruction of the object it names. Null when none was pending
     * (a non-blocking fd) or the read failed.
     */
    static AsyncEvent take(MemorySegment ctx, MemorySegment errno, MemorySegment event) throws Throwable {
        int rc = (int) GET_ASYNC_EVENT.invokeExact(errno, ctx, event);
        if (rc != 0) {
            return null;
        }
        try {
            int type = ibv_async_event.event_type(event);
            return new AsyncEvent(type, Rdma.ibv_event_type_str(type).getString(0),
                    isPort(type) ? ibv_async_event.element.port_num(ibv_async_event.element(event)) : 0,
                    isPort(type) ? 0 : ibv_async_event.element.qp(ibv_async_event.element(event)).address());
        } finally {
            Rdma.ibv_ack_async_event(event);
        }
    }

    private static boolean isPort(int type) {
        return new AsyncEvent(type, "", 0, 0).isPortEvent();
    }

    @Override
    void destroy(MemorySegment ignored) {
        running = false;
        try {
            thread.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
