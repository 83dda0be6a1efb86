package dev.verbs4j.benchmarks.perf;

import java.util.Locale;

/** The tests {@code verbs4j perf} runs, named like perftest's binaries without the {@code ib_} prefix. */
public enum PerfTest {
    SEND_LAT("Send Latency Test", true, 2, 1000),
    WRITE_LAT("RDMA_Write Latency Test", true, 2, 1000),
    READ_LAT("RDMA_Read Latency Test", true, 1, 1000),
    ATOMIC_LAT("Atomic FETCH_AND_ADD Latency Test", true, 1, 1000),
    SEND_BW("Send BW Test", false, 1, 5000),
    WRITE_BW("RDMA_Write BW Test", false, 1, 5000),
    READ_BW("RDMA_Read BW Test", false, 1, 5000);

    /** Atomics always move 8 bytes. */
    static final int ATOMIC_SIZE = 8;

    private final String title;
    private final boolean latency;
    private final int rttFactor;
    private final int defaultIterations;

    PerfTest(String title, boolean latency, int rttFactor, int defaultIterations) {
        this.title = title;
        this.latency = latency;
        this.rttFactor = rttFactor;
        this.defaultIterations = defaultIterations;
    }

    /** "send_lat" → SEND_LAT; also accepts perftest's binary names (ib_send_lat). */
    public static PerfTest parse(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("ib_")) {
            n = n.substring(3);
        }
        for (PerfTest t : values()) {
            if (t.cliName().equals(n)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown test '" + name + "'; tests: " + names());
    }

    static String names() {
        StringBuilder s = new StringBuilder();
        for (PerfTest t : values()) {
            s.append(s.isEmpty() ? "" : ", ").append(t.cliName());
        }
        return s.toString();
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The title perftest prints above its parameters. */
    public String title() {
        return title;
    }

    public boolean isLatency() {
        return latency;
    }

    /** 2 when the measured interval is a round trip reported as one way (ping-pong), else 1. */
    public int rttFactor() {
        return rttFactor;
    }

    public int defaultIterations() {
        return defaultIterations;
    }

    /** perftest's default message size: 2 bytes for latency, 64 KiB for bandwidth, 8 for atomics. */
    public int defaultSize() {
        return this == ATOMIC_LAT ? ATOMIC_SIZE : latency ? 2 : 65536;
    }

    /** Both sides take part in the data path (and both print rows), as in perftest. */
    public boolean isTwoSided() {
        return this == SEND_LAT || this == WRITE_LAT || this == SEND_BW;
    }

    public boolean usesReceives() {
        return this == SEND_LAT || this == SEND_BW;
    }
}
