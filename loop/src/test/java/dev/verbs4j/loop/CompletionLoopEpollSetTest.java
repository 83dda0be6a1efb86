package dev.verbs4j.loop;

import dev.verbs4j.unix.Epoll;
import dev.verbs4j.unix.EventFd;
import dev.verbs4j.unix.testing.EpollSets;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link dev.verbs4j.loop.spi.LoopEngine#changeEvents} with no events takes an fd out of the loop's epoll set, as
 * the kernel shows in /proc/self/fdinfo, and events asked again put it back with what is
 * pending reported; unwatching and watching again around that keep the set consistent.
 */
class CompletionLoopEpollSetTest {

    @Test
    void noEventsTakesTheFdOutOfTheSetAndEventsAskedAgainReportWhatIsPending() throws Exception {
        CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT);
        try (EventFd fd = new EventFd()) {
            Semaphore ready = new Semaphore(0);
            loop.engine().watch(fd.fd(), Epoll.IN, events -> {
                fd.drain();
                ready.release();
            });
            assertEquals(1, EpollSets.holding(fd.fd()), "watched: in the loop's set");

            loop.engine().changeEvents(fd.fd(), 0);
            loop.engine().changeEvents(fd.fd(), 0); // twice: still out, no error
            assertEquals(0, EpollSets.holding(fd.fd()), "no events: in no epoll set");

            fd.signal(); // pending while out of the set
            loop.engine().changeEvents(fd.fd(), Epoll.IN);
            assertEquals(1, EpollSets.holding(fd.fd()));
            assertTrue(ready.tryAcquire(30, TimeUnit.SECONDS), "back in the set, the pending signal is heard");

            loop.engine().changeEvents(fd.fd(), 0);
            loop.engine().unwatch(fd.fd()); // while out of the set
            assertEquals(0, EpollSets.holding(fd.fd()));
            loop.engine().watch(fd.fd(), Epoll.IN, events -> {
                fd.drain();
                ready.release();
            });
            loop.engine().changeEvents(fd.fd(), Epoll.IN | Epoll.OUT); // in the set again: a change, not a second add
            assertEquals(1, EpollSets.holding(fd.fd()));
            fd.signal();
            assertTrue(ready.tryAcquire(30, TimeUnit.SECONDS), "watched again, a signal is heard");
            loop.engine().unwatch(fd.fd());
            assertEquals(0, EpollSets.holding(fd.fd()));
        } finally {
            loop.close();
        }
    }

    @Test
    void theKernelListingSeesEveryWatchedFd() throws Exception {
        // the check above relies on this listing: one fd watched by two loops is in two sets
        CompletionLoop first = CompletionLoop.start(CompletionMode.EVENT);
        CompletionLoop second = CompletionLoop.start(CompletionMode.EVENT);
        try (EventFd fd = new EventFd()) {
            for (CompletionLoop loop : List.of(first, second)) {
                loop.engine().watch(fd.fd(), Epoll.IN, events -> fd.drain());
            }
            assertEquals(2, EpollSets.holding(fd.fd()));
            first.engine().unwatch(fd.fd());
            second.engine().unwatch(fd.fd());
            assertEquals(0, EpollSets.holding(fd.fd()));
        } finally {
            first.close();
            second.close();
        }
    }
}
