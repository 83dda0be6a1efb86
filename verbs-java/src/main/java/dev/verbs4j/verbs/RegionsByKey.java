package dev.verbs4j.verbs;

import java.util.Arrays;

/**
 * A protection domain's open memory regions by lkey, for the data path's lookups: an immutable
 * sorted snapshot searched without locks or boxing (a map keyed by Integer allocates a box per
 * lookup for most lkeys), replaced as a whole when a region is registered or deregistered,
 * which is rare next to posting.
 */
final class RegionsByKey<R> {
    private record Snapshot(int[] keys, Object[] regions) {}

    private volatile Snapshot snapshot = new Snapshot(new int[0], new Object[0]);

    /** The open region with this lkey, or null. */
    @SuppressWarnings("unchecked")
    R get(int lkey) {
        Snapshot s = snapshot;
        int i = Arrays.binarySearch(s.keys, lkey);
        return i >= 0 ? (R) s.regions[i] : null;
    }

    synchronized void put(int lkey, R mr) {
        Snapshot s = snapshot;
        int i = Arrays.binarySearch(s.keys, lkey);
        if (i >= 0) {
            Object[] regions = s.regions.clone();
            regions[i] = mr;
            snapshot = new Snapshot(s.keys, regions);
            return;
        }
        int at = -i - 1, n = s.keys.length;
        int[] keys = new int[n + 1];
        Object[] regions = new Object[n + 1];
        System.arraycopy(s.keys, 0, keys, 0, at);
        System.arraycopy(s.regions, 0, regions, 0, at);
        keys[at] = lkey;
        regions[at] = mr;
        System.arraycopy(s.keys, at, keys, at + 1, n - at);
        System.arraycopy(s.regions, at, regions, at + 1, n - at);
        snapshot = new Snapshot(keys, regions);
    }

    /** Removes the entry for {@code lkey} if it still names {@code mr}. */
    synchronized void remove(int lkey, R mr) {
        Snapshot s = snapshot;
        int i = Arrays.binarySearch(s.keys, lkey);
        if (i < 0 || s.regions[i] != mr) {
            return;
        }
        int n = s.keys.length;
        int[] keys = new int[n - 1];
        Object[] regions = new Object[n - 1];
        System.arraycopy(s.keys, 0, keys, 0, i);
        System.arraycopy(s.regions, 0, regions, 0, i);
        System.arraycopy(s.keys, i + 1, keys, i, n - i - 1);
        System.arraycopy(s.regions, i + 1, regions, i, n - i - 1);
        snapshot = new Snapshot(keys, regions);
    }
}
