package dev.verbs4j.guest.transport;

import dev.verbs4j.guest.ChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Operations in flight by id (the wr_id on RDMA, the request id on TCP): each one's future and
 * what to give back when it ends (its send credit, its send buffer).
 */
final class ChannelOperations {
    private record Operation(CompletableFuture<Void> future, Runnable release) {}

    private final Map<Long, Operation> inFlight = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    long add(CompletableFuture<Void> future, Runnable release) {
        long id = ids.incrementAndGet();
        inFlight.put(id, new Operation(future, release));
        return id;
    }

    void complete(long id) {
        Operation op = inFlight.remove(id);
        if (op != null) {
            op.release.run();
            op.future.complete(null);
        }
    }

    void fail(long id, ChannelException e) {
        Operation op = inFlight.remove(id);
        if (op != null) {
            op.release.run();
            op.future.completeExceptionally(e);
        }
    }

    void failAll(ChannelException e) {
        List<Long> ids = new ArrayList<>(inFlight.keySet());
        for (long id : ids) {
            fail(id, e);
        }
    }

    boolean isEmpty() {
        return inFlight.isEmpty();
    }
}
