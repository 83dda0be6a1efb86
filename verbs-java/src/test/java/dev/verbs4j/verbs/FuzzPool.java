package dev.verbs4j.verbs;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The verbs objects the fuzzer's threads share: one context and PD, and bounded lists of CQs,
 * QPs, SRQs, MRs, AHs and memory arenas that any thread may use or close at any time.
 */
final class FuzzPool {
    static final int MAX_EACH = 6;

    final Context ctx;
    final ProtectionDomain pd;
    final GidEntry gid;
    final List<CompletionQueue> cqs = new ArrayList<>();
    final List<QueuePair> qps = new ArrayList<>();
    final List<SharedReceiveQueue> srqs = new ArrayList<>();
    final List<MemoryRegion> mrs = new ArrayList<>();
    final List<AddressHandle> ahs = new ArrayList<>();
    final List<Arena> arenas = new ArrayList<>();
    /** Stays registered until the end, so the PD always has a child and refuses the fuzzer's closes. */
    private final Arena keeperMemory = Arena.ofShared();
    private final MemoryRegion keeper;

    FuzzPool() {
        ctx = RdmaTestSupport.openDevice();
        gid = ctx.chooseGid(QpLoopback.PORT, GidChooser.preferRoceV2Ipv4());
        pd = ctx.allocateProtectionDomain();
        keeper = pd.register(keeperMemory.allocate(4096, 4096), Access.ALL_REMOTE);
    }

    /** A random element of {@code list}, or null when it is empty. */
    <T> T pick(List<T> list, Random rnd) {
        synchronized (this) {
            return list.isEmpty() ? null : list.get(rnd.nextInt(list.size()));
        }
    }

    /** Adds {@code o} unless the list is full; returns false (and the caller closes o) when full. */
    <T> boolean add(List<T> list, T o) {
        synchronized (this) {
            if (list.size() >= MAX_EACH) {
                return false;
            }
            list.add(o);
            return true;
        }
    }

    /** Removes a random element for closing, or null. */
    <T> T take(List<T> list, Random rnd) {
        synchronized (this) {
            return list.isEmpty() ? null : list.remove(rnd.nextInt(list.size()));
        }
    }

    <T> void putBack(List<T> list, T o) {
        synchronized (this) {
            list.add(o);
        }
    }

    /** Closes everything, children before parents; returns what could not be closed. */
    List<String> closeAll() {
        List<String> left = new ArrayList<>();
        for (List<? extends AutoCloseable> list : List.of(qps, ahs, srqs, mrs, cqs)) {
            for (AutoCloseable c : list) {
                try {
                    c.close();
                } catch (Exception e) {
                    left.add(c + ": " + e);
                }
            }
        }
        arenas.forEach(a -> {
            try {
                a.close();
            } catch (IllegalStateException alreadyClosed) {
                // closed by a fuzz step that then failed to remove it: nothing to free
            }
        });
        keeper.close();
        keeperMemory.close();
        pd.close();
        ctx.close();
        return left;
    }
}
