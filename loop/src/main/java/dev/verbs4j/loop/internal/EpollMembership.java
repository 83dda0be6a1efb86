package dev.verbs4j.loop.internal;

import dev.verbs4j.unix.Epoll;
import java.util.BitSet;

/**
 * Which of the loop's fds are in its epoll set. An fd asked for no events is taken out of the
 * set, not left in it with none, and put back when events are asked again: a socket in an epoll
 * set has the set's callback run at every wake-up of its own waiters, asked for or not, so a
 * thread that reads a TCP channel's socket itself (out of the loop's hands) would pay for the
 * set on every message it waits for.
 *
 * <p>Any thread. The calls for one fd come one at a time (its channel's lock orders them);
 * those for different fds may overlap.
 */
final class EpollMembership {
    private final Epoll epoll;
    /** Fds watched by the loop but out of the set for now; guarded by itself. */
    private final BitSet outOfSet = new BitSet();

    EpollMembership(Epoll epoll) {
        this.epoll = epoll;
    }

    /** A newly watched fd (whose number a closed one may have had) joins the set. */
    void add(int fd, int events) {
        synchronized (outOfSet) {
            outOfSet.clear(fd);
        }
        epoll.add(fd, events);
    }

    /** From now on the fd is watched for {@code events}; none takes it out of the set. */
    void change(int fd, int events) {
        synchronized (outOfSet) {
            if (events == 0) {
                if (!outOfSet.get(fd)) {
                    epoll.remove(fd);
                    outOfSet.set(fd);
                }
            } else if (outOfSet.get(fd)) {
                epoll.add(fd, events);
                outOfSet.clear(fd);
            } else {
                epoll.modify(fd, events);
            }
        }
    }

    /** The fd is no longer watched: out of the set, if it is still in it. */
    void remove(int fd) {
        synchronized (outOfSet) {
            if (outOfSet.get(fd)) {
                outOfSet.clear(fd);
                return;
            }
        }
        epoll.remove(fd);
    }
}
