package dev.verbs4j.loop.internal;

import dev.verbs4j.loop.spi.FdHandler;
import dev.verbs4j.loop.spi.LoopDevice;
import dev.verbs4j.loop.spi.PortListener;
import dev.verbs4j.verbs.AsyncEvent;
import dev.verbs4j.unix.FileDescriptor;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.Verbs;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A device a loop opened for its transports: the context and the completion channel their CQs
 * signal. The channel's fd is non-blocking and sits in the loop's epoll set; while it is
 * readable the loop takes the pending CQ events.
 */
final class OpenDevice implements LoopDevice, FdHandler, AutoCloseable {
    private final Context context;
    private final CompletionChannel events;
    private final Consumer<CompletionQueue> onEvent;
    private final CopyOnWriteArrayList<PortListener> portListeners = new CopyOnWriteArrayList<>();
    /** The device's async events: port changes go to {@link #watchPorts}' listeners, the rest are dropped. */
    final FdHandler portEvents = ready -> takePortEvent();

    OpenDevice(String name, Consumer<CompletionQueue> onEvent) {
        this.context = Verbs.open(name);
        this.onEvent = onEvent;
        try {
            this.events = context.createCompletionChannel();
            FileDescriptor.setNonBlocking(events.fd());
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    @Override
    public Context context() {
        return context;
    }

    @Override
    public CompletionChannel events() {
        return events;
    }

    /**
     * Takes one pending CQ event (counted for a batched ack); the next loop pass polls its CQ.
     * One, not all: a wake-up nearly always has one, and reading until EAGAIN would cost a second
     * system call each time. More pending keep the fd readable, and epoll reports it again.
     */
    @Override
    public void onReady(int readyEvents) {
        CompletionQueue cq = events.takeEvent();
        if (cq != null) {
            onEvent.accept(cq);
        }
    }

    @Override
    public AutoCloseable watchPorts(PortListener listener) {
        portListeners.add(listener);
        return () -> portListeners.remove(listener);
    }

    /** One pending async event, as {@link #onReady} takes one CQ event: more keep the fd readable. */
    private void takePortEvent() {
        AsyncEvent event = context.takeAsyncEvent();
        if (event == null || event.type() != AsyncEvent.PORT_ACTIVE && event.type() != AsyncEvent.PORT_ERR) {
            return;
        }
        for (PortListener listener : portListeners) {
            listener.onPortChange(event.port(), event.type() == AsyncEvent.PORT_ACTIVE);
        }
    }

    @Override
    public void close() {
        try {
            events.close();
        } finally {
            context.close();
        }
    }
}
