package dev.verbs4j.benchmarks.perf;

import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code verbs4j perf TEST [OPTIONS] [SERVER]}: perftest's option letters and
 * long names. Without SERVER this side is the server and waits; with it, the client connects.
 * The client's size list and iteration count are sent to the server, so the server needs only
 * the test name and the device options.
 */
public record PerfOptions(PerfTest test, String serverHost, String device, int ibPort, int gidIndex, List<Integer> sizes,
                          boolean sizesGiven, int iterations, int inlineSize, int txDepth, int rxDepth, int cqModeration,
                          boolean events, int tcpPort, boolean noPeak, int warmup) {

    static final int DEFAULT_TCP_PORT = 18515;
    /** perftest -a: 2 bytes to 8 MiB in powers of two. */
    static final int ALL_SIZES_MAX = 1 << 23;
    /** -I not given: the QP asks for no inline data and sends go through the lkey. */
    static final int INLINE_UNSET = -1;

    public boolean isServer() {
        return serverHost == null;
    }

    public static String usage() {
        return """
                Usage: verbs4j perf TEST [OPTIONS]            start a server and wait for the client
                       verbs4j perf TEST [OPTIONS] HOST       connect to the server at HOST
                TEST: send_lat write_lat read_lat atomic_lat send_bw write_bw read_bw
                Options (as perftest's):
                  -d, --ib-dev=DEV       RDMA device (default: the first one)
                  -i, --ib-port=PORT     device port (default 1)
                  -x, --gid-index=N      GID index (default: a RoCE v2 IPv4 GID)
                  -s, --size=BYTES       message size (default 2 for latency, 65536 for bandwidth)
                  -a, --all              all sizes from 2 to 2^23
                  -n, --iters=N          iterations (at least 5; default 1000 latency, 5000 bandwidth)
                  -I, --inline_size=N    send up to N bytes inline (default 0: no inline)
                  -t, --tx-depth=N       send queue depth (default 128 bandwidth, 1 latency)
                  -r, --rx-depth=N       receive queue depth (default 512)
                  -Q, --cq-mod=N         one signaled completion every N sends (bandwidth, default 100)
                  -e, --events           sleep on CQ events instead of busy polling
                  -p, --port=PORT        TCP port of the out-of-band exchange (default 18515)
                  -N, --noPeak           skip the peak bandwidth search
                      --warmup=N         before each size, rounds of N untimed iterations until the
                                         JIT compiles nothing more (default 0: none, like perftest)
                The client's sizes and iterations are used by both sides.
                """;
    }

    public static PerfOptions parse(String[] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("name a test: " + PerfTest.names());
        }
        PerfTest test = PerfTest.parse(args[0]);
        Parser p = new Parser(args);
        String host = null;
        String device = null;
        int ibPort = 1;
        int gid = -1;
        Integer size = null;
        boolean all = false;
        int iterations = test.defaultIterations();
        int inline = INLINE_UNSET;
        int tx = test.isLatency() ? 1 : 128;
        int rx = 512;
        int cqMod = 100;
        boolean events = false;
        int tcpPort = DEFAULT_TCP_PORT;
        boolean noPeak = false;
        int warmup = 0;
        while (p.hasNext()) {
            String a = p.next();
            String name = Parser.optionName(a);
            switch (name) {
                case "-d", "--ib-dev" -> device = p.value(a);
                case "-i", "--ib-port" -> ibPort = p.intValue(a, 1);
                case "-x", "--gid-index" -> gid = p.intValue(a, 0);
                case "-s", "--size" -> size = p.intValue(a, 1);
                case "-a", "--all" -> all = true;
                case "-n", "--iters" -> iterations = p.intValue(a, 5);
                case "-I", "--inline_size" -> inline = p.intValue(a, 0);
                case "-t", "--tx-depth" -> tx = p.intValue(a, 1);
                case "-r", "--rx-depth" -> rx = p.intValue(a, 1);
                case "-Q", "--cq-mod" -> cqMod = p.intValue(a, 1);
                case "-e", "--events" -> events = true;
                case "-p", "--port" -> tcpPort = p.intValue(a, 1);
                case "-N", "--noPeak" -> noPeak = true;
                case "--warmup" -> warmup = p.intValue(a, 0);
                default -> {
                    if (a.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option " + a);
                    }
                    if (host != null) {
                        throw new IllegalArgumentException("one server host only, got " + host + " and " + a);
                    }
                    host = a;
                }
            }
        }
        if (test == PerfTest.ATOMIC_LAT && size != null && size != PerfTest.ATOMIC_SIZE) {
            throw new IllegalArgumentException("atomics move 8 bytes; -s must be 8 or absent");
        }
        if (test == PerfTest.WRITE_LAT && events) {
            throw new IllegalArgumentException("write_lat detects arrivals by polling memory; -e does not apply");
        }
        if (!test.isLatency() && cqMod > tx) {
            cqMod = tx; // at least one signaled send per queue's worth, or the send queue fills up
        }
        boolean sizesGiven = size != null || all;
        List<Integer> sizes = all ? allSizes(test) : List.of(size != null ? size : test.defaultSize());
        return new PerfOptions(test, host, device, ibPort, gid, sizes, sizesGiven, iterations, inline, tx, rx, cqMod,
                events, tcpPort, noPeak, warmup);
    }

    static List<Integer> allSizes(PerfTest test) {
        if (test == PerfTest.ATOMIC_LAT) {
            return List.of(PerfTest.ATOMIC_SIZE);
        }
        List<Integer> sizes = new ArrayList<>();
        for (int s = 2; s <= ALL_SIZES_MAX; s <<= 1) {
            sizes.add(s);
        }
        return List.copyOf(sizes);
    }

    /** The same options with the client's sizes and iterations (what the server adopts). */
    PerfOptions withRun(List<Integer> runSizes, int runIterations, int runWarmup) {
        return new PerfOptions(test, serverHost, device, ibPort, gidIndex, List.copyOf(runSizes), true, runIterations,
                inlineSize, txDepth, rxDepth, cqModeration, events, tcpPort, noPeak, runWarmup);
    }

    public int maxSize() {
        int max = 0;
        for (int s : sizes) {
            max = Math.max(max, s);
        }
        return max;
    }

    /** Reads "-x 3", "--gid-index=3" and "--gid-index 3". */
    private static final class Parser {
        private final String[] args;
        private int next = 1; // args[0] is the test

        Parser(String[] args) {
            this.args = args;
        }

        boolean hasNext() {
            return next < args.length;
        }

        String next() {
            return args[next++];
        }

        static String optionName(String arg) {
            int eq = arg.indexOf('=');
            return arg.startsWith("--") && eq > 0 ? arg.substring(0, eq) : arg;
        }

        String value(String arg) {
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                return arg.substring(eq + 1);
            }
            if (!hasNext()) {
                throw new IllegalArgumentException("option " + arg + " needs a value");
            }
            return next();
        }

        int intValue(String arg, int min) {
            String v = value(arg);
            int n;
            try {
                n = Integer.decode(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("option " + arg + " needs a number, got '" + v + "'");
            }
            if (n < min) {
                throw new IllegalArgumentException("option " + arg + " must be at least " + min + ", got " + n);
            }
            return n;
        }
    }
}
