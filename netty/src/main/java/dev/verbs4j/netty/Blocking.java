package dev.verbs4j.netty;

import dev.verbs4j.guest.Channel;
import io.netty.channel.EventLoop;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The channel layer's blocking steps, kept off the event loops: setting a channel up (the TCP
 * connect and the bootstrap exchange, round trips and an RDMA connect) and closing one (it waits,
 * bounded, for its sends to complete and for the peer's answer). Results go back to the event
 * loop as tasks; one that finds the event loop gone closes what it made.
 */
final class Blocking {
    private static final Logger LOG = LoggerFactory.getLogger(Blocking.class);
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final ExecutorService WORKERS = Executors.newCachedThreadPool(task ->
            Thread.ofPlatform().daemon().name("verbs4j-netty-setup-" + THREADS.incrementAndGet()).unstarted(task));

    private Blocking() {}

    /** Runs {@code setUp} here; its channel or its failure goes to {@code loop}. */
    static void setUp(Callable<Channel> setUp, EventLoop loop, Consumer<Channel> done, Consumer<Throwable> failed) {
        WORKERS.execute(() -> {
            Channel link;
            try {
                link = setUp.call();
            } catch (Throwable t) {
                onLoop(loop, () -> failed.accept(t), null);
                return;
            }
            onLoop(loop, () -> done.accept(link), link);
        });
    }

    /** Closes {@code link} here: orderly, after its sends, without holding up the event loop. */
    static void close(Channel link) {
        try {
            WORKERS.execute(() -> closeNow(link));
        } catch (RejectedExecutionException e) {
            closeNow(link);
        }
    }

    private static void onLoop(EventLoop loop, Runnable task, Channel orphan) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            if (orphan != null) {
                closeNow(orphan); // the event loop is gone: nobody takes the channel
            }
        }
    }

    private static void closeNow(Channel link) {
        try {
            link.close();
        } catch (RuntimeException e) {
            LOG.debug("closing {} failed: {}", link, e.getMessage());
        }
    }
}
