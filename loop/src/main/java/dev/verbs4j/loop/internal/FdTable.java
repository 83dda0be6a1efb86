package dev.verbs4j.loop.internal;

import dev.verbs4j.loop.spi.FdHandler;
import dev.verbs4j.unix.Epoll;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fds a loop watches: a handler per fd number (an fd is unique among open fds, and leaves the
 * set before it closes), their membership of the epoll set, and the dispatch of the ready ones.
 * Everything but {@link #change} runs in the loop's passes.
 */
final class FdTable {
    private static final Logger LOG = LoggerFactory.getLogger(FdTable.class);

    private final EpollMembership members;
    private FdHandler[] handlers = new FdHandler[64];
    /** Watched fds that {@link FdHandler#carriesMessages()}. */
    private int messageFds;

    FdTable(Epoll epoll) {
        this.members = new EpollMembership(epoll);
    }

    void add(int fd, int events, FdHandler handler) {
        if (fd >= handlers.length) {
            handlers = Arrays.copyOf(handlers, Math.max(fd + 1, handlers.length * 2));
        }
        handlers[fd] = handler;
        try {
            members.add(fd, events);
        } catch (RuntimeException e) {
            handlers[fd] = null;
            throw e;
        }
        if (handler.carriesMessages()) {
            messageFds++;
        }
    }

    /** Any thread: epoll_ctl needs no wake-up. */
    void change(int fd, int events) {
        members.change(fd, events);
    }

    void remove(int fd) {
        if (fd < handlers.length && handlers[fd] != null) {
            if (handlers[fd].carriesMessages()) {
                messageFds--;
            }
            handlers[fd] = null;
            try {
                members.remove(fd);
            } catch (RuntimeException e) {
                LOG.debug("removing fd {} from the epoll set: {}", fd, e.getMessage());
            }
        }
    }

    /** Whether a watched fd carries the application's messages: a spinning loop looks at the set every pass. */
    boolean carriesMessages() {
        return messageFds > 0;
    }

    /** Tells the handler of a ready fd; a handler an earlier one unwatched in this batch is not told. */
    void dispatch(int fd, int events) {
        FdHandler handler = fd < handlers.length ? handlers[fd] : null;
        if (handler == null) {
            return;
        }
        try {
            handler.onReady(events);
        } catch (RuntimeException e) {
            LOG.warn("handling fd {} failed", fd, e);
        }
    }

    /** At the loop's end: closes the handlers that can be closed, but the devices (the device table's). */
    void closeHandlers() {
        for (FdHandler handler : handlers) {
            if (handler instanceof AutoCloseable c && !(handler instanceof OpenDevice)) {
                DefaultEngine.closeQuietly(c);
            }
        }
    }
}
