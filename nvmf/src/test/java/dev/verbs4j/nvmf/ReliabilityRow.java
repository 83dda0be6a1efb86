package dev.verbs4j.nvmf;

/**
 * One row of the README's reliability table, printed as {@code ci/faults} collects them: where the
 * fault acted, what it was, how often it was injected, the writes and bytes checked, what was lost
 * and how the host came out of it.
 */
final class ReliabilityRow {
    private ReliabilityRow() {
    }

    static void print(String where, String fault, String injected, long writes, long bytes, String ended) {
        // lost is always 0: a test that lost an acknowledged write has failed before it prints
        System.out.printf("reliability | %s | %s | %s | %d | %d | 0 | %s%n", where, fault, injected, writes, bytes,
                ended);
    }
}
