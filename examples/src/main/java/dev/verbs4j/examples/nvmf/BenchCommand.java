package dev.verbs4j.examples.nvmf;

import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.nvmf.IoBuffer;
import dev.verbs4j.nvmf.NvmfConnectOptions;
import dev.verbs4j.nvmf.NvmfController;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Random-I/O benchmark in fio's terms: for each pattern and queue depth, IOPS and completion
 * latency p50/p99 over a timed closed-loop run after a warm-up, and what the run cost the whole
 * machine's CPUs (from /proc/stat, so Linux only): the busy fraction of all CPUs and busy CPU
 * microseconds per I/O. One line per run:
 * {@code verbs4j <rw> qd=<n> iops=<x> p50_us=<y> p99_us=<z> ios=<n> sys_busy=<0..1> cpu_us_per_io=<t>}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "4 KiB random read/write IOPS and latency at several queue depths, over the -i I/O queues")
final class BenchCommand implements Runnable {
    @Mixin
    ConnectOptions connection;

    @Mixin
    NamespaceOption namespace;

    @Option(names = "--rw", split = ",", defaultValue = "randread,randwrite",
            description = "patterns: randread, randwrite (default ${DEFAULT-VALUE})")
    List<String> patterns;

    @Option(names = "--iodepth", split = ",", defaultValue = "1,16,32", description = "queue depths (default ${DEFAULT-VALUE})")
    List<Integer> depths;

    @Option(names = "--bs", defaultValue = "4096", description = "I/O size in bytes (default ${DEFAULT-VALUE})")
    int ioBytes;

    @Option(names = "--runtime", defaultValue = "5", description = "seconds per run (default ${DEFAULT-VALUE})")
    double runtime;

    @Option(names = "--warmup", defaultValue = "2", description = "warm-up seconds per run (default ${DEFAULT-VALUE})")
    double warmup;

    @Option(names = "--progress", defaultValue = "poll",
            description = "who completes the I/O: poll (this thread polls without pause), thread (the controller's "
                    + "progress thread, its completion loop as --mode says) (default ${DEFAULT-VALUE})")
    String progress;

    @Option(names = "--spin-us", defaultValue = "1000",
            description = "with --progress thread: microseconds its adaptive loop polls before it sleeps (default ${DEFAULT-VALUE})")
    long spinMicros;

    @Option(names = "--mode", paramLabel = "M", defaultValue = "adaptive",
            description = "with --progress thread: how its completion loop waits: busy, event or adaptive (default)")
    String mode;

    @Override
    public void run() {
        int maxDepth = depths.stream().mapToInt(Integer::intValue).max().orElse(1);
        connection.queueSize = Math.max(connection.queueSize, maxDepth + 1);
        boolean thread = switch (progress) {
            case "poll" -> false;
            case "thread" -> true;
            default -> throw new IllegalArgumentException("--progress " + progress + ": poll or thread");
        };
        NvmfConnectOptions options = connection.toOptions(true).withProgressThread(thread)
                .withProgressSpin(Duration.ofNanos(spinMicros * 1000)).withCompletionMode(CompletionMode.parse(mode));
        try (NvmfController c = NvmfController.connect(options)) {
            NamespaceIdentity ns = c.namespace(namespace.nsid);
            if (ioBytes % ns.blockSize() != 0) {
                throw new IllegalArgumentException("--bs " + ioBytes + " is not a multiple of the block size " + ns.blockSize());
            }
            try (IoBuffer buf = c.allocateBuffer((long) ioBytes * maxDepth)) {
                for (String p : patterns) {
                    boolean write = switch (p) {
                        case "randread" -> false;
                        case "randwrite" -> true;
                        default -> throw new IllegalArgumentException("--rw " + p + ": randread or randwrite");
                    };
                    for (int depth : depths) {
                        BenchRun run = new BenchRun(c, thread, buf, namespace.nsid, write, depth, ns.blockSize(), ioBytes, ns.size(),
                                4 << 20);
                        run.run(warmup);
                        CpuTimes before = CpuTimes.read();
                        BenchRun.Result r = run.run(runtime);
                        CpuTimes after = CpuTimes.read();
                        System.out.printf("verbs4j %s qd=%d iops=%.0f p50_us=%.1f p99_us=%.1f ios=%d sys_busy=%.2f"
                                        + " cpu_us_per_io=%.1f%n", p, depth, r.iops(), r.p50Micros(), r.p99Micros(), r.ios(),
                                after.busySince(before), after.microsPerIo(before, r.ios()));
                    }
                }
            }
        }
    }
}
