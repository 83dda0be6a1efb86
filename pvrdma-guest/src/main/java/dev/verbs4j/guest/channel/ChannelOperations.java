package dev.verbs4j.guest.channel;

import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.loop.spi.LoopEngine;
import java.util.concurrent.CompletableFuture;

/**
 * Operations in flight, one per send credit: each holds one of {@code depth} slots (a credit
 * guarantees a free one) with its future, under an id for the wire (the wr_id on RDMA, the
 * request id on TCP). The id names the slot and a generation, so a late or repeated completion
 * of an operation that already ended finds nothing. Ending an operation gives its credit back.
 * The RDMA channel also uses the slot as the operation's send buffer.
 *
 * <p>Arrays, not a map: adding and ending an operation allocates nothing and boxes nothing.
 */
public final class ChannelOperations {
    private static final int SLOT_BITS = 20;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    /** Stands for the missing future of an offered send: nobody to complete, nobody waiting. */
    private static final CompletableFuture<Void> NO_FUTURE = new CompletableFuture<>();

    private final ChannelSendCredits credits;
    private final LoopEngine engine;
    private final CompletableFuture<?>[] futures;
    private final long[] ids;
    private final int[] free;
    private int freeCount;
    private long generation;

    ChannelOperations(int depth, ChannelSendCredits credits, LoopEngine engine) {
        if (depth < 1 || depth > SLOT_MASK) {
            throw new IllegalArgumentException("depth " + depth);
        }
        this.credits = credits;
        this.engine = engine;
        this.futures = new CompletableFuture<?>[depth];
        this.ids = new long[depth];
        this.free = new int[depth];
        for (int i = 0; i < depth; i++) {
            free[i] = depth - 1 - i;
        }
        this.freeCount = depth;
    }

    /** The slot an id names: 0 to depth - 1. */
    public static int slot(long id) {
        return (int) (id & SLOT_MASK);
    }

    /**
     * Registers an operation whose credit the caller holds, with its future (null for a send
     * that has none, {@link dev.verbs4j.guest.Channel#offer}); returns its id (never 0, below bit 62).
     */
    public synchronized long add(CompletableFuture<Void> future) {
        if (freeCount == 0) {
            throw new IllegalStateException("more operations than send credits");
        }
        int slot = free[--freeCount];
        long id = (++generation << SLOT_BITS) | slot;
        ids[slot] = id;
        futures[slot] = future == null ? NO_FUTURE : future;
        return id;
    }

    /**
     * Ends a send that was never registered (it went out at once, or failed first): gives its
     * credit back and completes {@code done} (null for an offered send), exceptionally if
     * {@code failure} is not null.
     */
    public void endUntracked(CompletableFuture<Void> done, ChannelException failure) {
        credits.release();
        if (done == null) {
            return;
        }
        if (failure == null) {
            done.complete(null);
        } else {
            done.completeExceptionally(failure);
        }
    }

    /** Completes the operation {@code id} (nothing if it already ended) and gives its credit back. */
    public void complete(long id) {
        @SuppressWarnings("unchecked")
        CompletableFuture<Void> f = (CompletableFuture<Void>) take(id);
        if (f != null) {
            credits.release();
            if (f != NO_FUTURE) {
                f.complete(null);
            }
        }
    }

    /** Fails the operation {@code id} (nothing if it already ended) and gives its credit back. */
    public void fail(long id, ChannelException e) {
        CompletableFuture<?> f = take(id);
        if (f != null) {
            credits.release();
            if (f != NO_FUTURE) {
                f.completeExceptionally(e);
            }
        }
    }

    void failAll(ChannelException e) {
        long[] inFlight;
        synchronized (this) {
            inFlight = ids.clone();
        }
        for (long id : inFlight) {
            if (id != 0) {
                fail(id, e);
            }
        }
    }

    /** Whether anyone waits for an operation in flight ({@link LoopEngine#isAwaited}). */
    public synchronized boolean anyAwaited() {
        for (CompletableFuture<?> f : futures) {
            if (f != null && f != NO_FUTURE && engine.isAwaited(f)) {
                return true;
            }
        }
        return false;
    }

    public synchronized boolean isEmpty() {
        return freeCount == futures.length;
    }

    private synchronized CompletableFuture<?> take(long id) {
        int slot = slot(id);
        if (id == 0 || slot >= ids.length || ids[slot] != id) {
            return null;
        }
        CompletableFuture<?> f = futures[slot];
        futures[slot] = null;
        ids[slot] = 0;
        free[freeCount++] = slot;
        return f;
    }
}
