package dev.verbs4j.verbs;

import java.util.SplittableRandom;

/**
 * The work requests of one {@link WireStream}: each one's opcode (SEND, RDMA WRITE or RDMA READ),
 * length (1 byte to eight MTU-1024 packets) and slot, and the bytes it carries. Every request has
 * its own slot at the same offset in both sides' regions, followed by {@link #GUARD} sentinel
 * bytes, so each request's bytes can be checked on their own and an overrun is seen.
 */
final class WirePlan {
    static final int GUARD = 64;
    static final byte SENTINEL = (byte) 0xEE;
    private static final int[] LENGTHS = {1, 700, 1024, 1025, 2048, 3000, 4096, 5500, 8192};
    private static final SendOpcode[] OPCODES = {SendOpcode.SEND, SendOpcode.RDMA_WRITE, SendOpcode.RDMA_READ};

    private final SendOpcode[] opcodes;
    private final int[] lengths;
    private final long[] offsets;
    private final byte[][] patterns;
    private final int sends;
    private final long regionBytes;

    /** {@code requests} requests drawn from {@code seed}: the same seed, the same plan. */
    WirePlan(int requests, long seed) {
        this(requests, seed, OPCODES);
    }

    /** As above, with opcodes drawn from {@code kinds} only. */
    WirePlan(int requests, long seed, SendOpcode... kinds) {
        SplittableRandom random = new SplittableRandom(seed);
        opcodes = new SendOpcode[requests];
        lengths = new int[requests];
        offsets = new long[requests];
        patterns = new byte[requests][];
        long at = 0;
        int sendCount = 0;
        for (int i = 0; i < requests; i++) {
            opcodes[i] = kinds[random.nextInt(kinds.length)];
            lengths[i] = LENGTHS[random.nextInt(LENGTHS.length)];
            offsets[i] = at;
            at = (at + lengths[i] + GUARD + 63) & ~63L;
            patterns[i] = new byte[lengths[i]];
            random.split().nextBytes(patterns[i]);
            sendCount += opcodes[i] == SendOpcode.SEND ? 1 : 0;
        }
        sends = sendCount;
        regionBytes = at;
    }

    int size() {
        return opcodes.length;
    }

    SendOpcode opcode(int i) {
        return opcodes[i];
    }

    int length(int i) {
        return lengths[i];
    }

    long offset(int i) {
        return offsets[i];
    }

    /** The bytes request {@code i} moves; owned by the plan, not to be changed. */
    byte[] pattern(int i) {
        return patterns[i];
    }

    /** How many requests are SENDs: the receives the responder posts. */
    int sends() {
        return sends;
    }

    /** The bytes each side's region needs for every slot and its guard. */
    long regionBytes() {
        return regionBytes;
    }
}
