package dev.verbs4j.examples;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CommonOptions;

import picocli.CommandLine;

/**
 * {@code bin/verbs4j rping}: talks to rdma-core's rping (either side) over rdma_cm, same options
 * and the same wire protocol (16-byte buffer advertisements, RDMA READ then RDMA WRITE per ping).
 */
public final class Rping {
    private Rping() {}

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** The whole program without the exit: its status. */
    static int execute(String[] args) {
        CommonOptions.configure(0);
        CommandLine cl = RpingOptions.commandLine();
        cl.setExecutionStrategy(parsed -> {
            if (cl.isUsageHelpRequested()) {
                cl.usage(cl.getOut());
                return 0;
            }
            RpingOptions o = RpingOptions.fromCommandLine(cl);
            try {
                return o.server ? new RpingServer(o, System.out).run() : new RpingClient(o, System.out).run();
            } catch (Exception e) {
                System.out.flush();
                System.err.println("verbs4j rping " + (o.server ? "server" : "client") + ": " + Cli.message(e));
                return 1;
            } finally {
                System.out.flush();
            }
        });
        return cl.execute(args);
    }
}
