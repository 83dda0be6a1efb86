package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.CompletionMode;
import dev.verbs4j.guest.TransportPreference;
import java.util.Set;

/** What {@code verbs4j mode-bench} was asked: role, transport, completion mode, size and counts. */
record ModeBenchOptions(boolean server, String host, String bind, int port, TransportPreference transport,
                        CompletionMode mode, boolean appThread, int size, int iterations, int warmup, String device, int gidIndex) {

    static final String USAGE = """
            Usage: verbs4j mode-bench --server [OPTIONS]      (waits for one client, echoes, reports its CPU)
                   verbs4j mode-bench [OPTIONS] HOST           (measures, prints one Markdown row)
              --mode busy|event|adaptive  completion loop mode of this side (default event)
              --transport auto|rdma|tcp   (default auto)
              --thread loop|app           who answers each message: the listener on the completion loop
                                          thread (default), or an application thread that sends and
                                          waits for the reply (as verbs4j pingpong does); both sides
              -s, --size BYTES            message size (default 64)
              -n, --iters N               measured round trips (default 10000)
              --warmup N                  round trips before measuring (default 1000)
              -p, --port PORT             bootstrap TCP port (default 18710)
              --bind ADDR                 server's bootstrap address (default 127.0.0.1)
              -d, --ib-dev DEVICE         RDMA device (default: the first usable)
              -x, --gid-idx INDEX         GID index (default: a RoCE v2 IPv4 GID)
            """;

    static ModeBenchOptions parse(String[] args) {
        BenchArgs a = BenchArgs.parse(args,
                Set.of("--mode", "--transport", "--thread", "-s", "--size", "-n", "--iters", "--warmup", "-p", "--port", "--bind",
                        "-d", "--ib-dev", "-x", "--gid-idx"),
                Set.of("--server"));
        boolean server = a.has("--server");
        if (server == (a.operand() != null)) {
            throw new IllegalArgumentException("give either --server or the server's HOST");
        }
        ModeBenchOptions o = new ModeBenchOptions(server, a.operand(), a.text("127.0.0.1", "--bind"),
                a.number(18710, "-p", "--port"), TransportPreference.parse(a.text("auto", "--transport")),
                CompletionMode.parse(a.text("event", "--mode")), appThread(a.text("loop", "--thread")), a.number(64, "-s", "--size"),
                a.number(10_000, "-n", "--iters"), a.number(1000, "--warmup"), a.text(null, "-d", "--ib-dev"),
                a.number(-1, "-x", "--gid-idx"));
        if (o.size < 1 || o.iterations < 1 || o.warmup < 0) {
            throw new IllegalArgumentException("size and iterations must be positive, warm-up not negative");
        }
        return o;
    }

    private static boolean appThread(String thread) {
        return switch (thread) {
            case "loop" -> false;
            case "app" -> true;
            default -> throw new IllegalArgumentException("--thread must be loop or app, got '" + thread + "'");
        };
    }

    /** Both sides can carry the 8-byte control messages whatever the payload size. */
    ChannelConfig config() {
        return ChannelConfig.defaults().transport(transport).mode(mode).maxMessageSize(Math.max(size, 16))
                .device(device).gidIndex(gidIndex);
    }
}
