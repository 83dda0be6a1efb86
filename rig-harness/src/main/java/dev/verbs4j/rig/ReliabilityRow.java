package dev.verbs4j.rig;

/**
 * One row of the README's reliability table, printed as {@code ci/faults} collects them: lines
 * that start {@code "reliability | "}, fields split on {@code " | "}.
 */
public final class ReliabilityRow {
    private ReliabilityRow() {
    }

    /**
     * Prints the row on standard output.
     *
     * @param where    the transport and the devices or hosts the fault acted between
     * @param fault    what was injected
     * @param injected how, and how often
     * @param messages the messages, requests or writes checked at their destination
     * @param bytes    the bytes checked
     * @param lost     what was lost of them
     * @param ended    how the traffic came out of it
     */
    public static void print(String where, String fault, String injected, long messages, long bytes, long lost,
                             String ended) {
        System.out.printf("reliability | %s | %s | %s | %d | %d | %d | %s%n", where, fault, injected, messages, bytes,
                lost, ended);
    }
}
