package dev.verbs4j.loop.internal;

import dev.verbs4j.loop.spi.MemorySource;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The memory sources a loop polls ({@link MemorySource}). Loop passes only. */
final class MemoryTable {
    private static final Logger LOG = LoggerFactory.getLogger(MemoryTable.class);

    private final List<MemorySource> sources = new ArrayList<>();

    void add(MemorySource source) {
        sources.add(source);
    }

    void remove(MemorySource source) {
        sources.remove(source);
    }

    /** Polls every source once; returns the work they did. */
    int pollAll() {
        int total = 0;
        for (int i = 0; i < sources.size(); i++) {
            try {
                total += sources.get(i).poll(); // a poll that ends its channel removes the source: the next one shifts in
            } catch (RuntimeException e) {
                LOG.warn("polling a memory source failed", e);
            }
        }
        return total;
    }

    /** Arms every source; returns whether there was any (then the loop polls once more). */
    boolean armAll() {
        for (int i = 0; i < sources.size(); i++) {
            sources.get(i).arm();
        }
        return !sources.isEmpty();
    }

    boolean ownRequestsUnwatched() {
        for (int i = 0; i < sources.size(); i++) {
            if (sources.get(i).hasUnwatchedOwnRequests()) {
                return true;
            }
        }
        return false;
    }
}
