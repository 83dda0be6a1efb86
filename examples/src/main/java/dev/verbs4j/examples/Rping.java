package dev.verbs4j.examples;

/**
 * {@code bin/verbs4j rping}: talks to rdma-core's rping (either side) over rdma_cm, same options
 * and the same wire protocol (16-byte buffer advertisements, RDMA READ then RDMA WRITE per ping).
 */
public final class Rping {
    private Rping() {}

    public static void main(String[] args) {
        RpingOptions o;
        try {
            o = RpingOptions.parse(args);
        } catch (RpingOptions.HelpRequested e) {
            System.out.print(RpingOptions.usage());
            return;
        } catch (RpingOptions.BadCommandLine e) {
            System.err.println("verbs4j rping: " + e.getMessage());
            if (e.showUsage) {
                System.out.print(RpingOptions.usage());
            }
            System.exit(RpingOptions.EXIT_USAGE);
            return;
        }
        int status;
        try {
            status = o.server ? new RpingServer(o, System.out).run() : new RpingClient(o, System.out).run();
        } catch (Exception e) {
            System.out.flush();
            String m = e.getMessage() != null ? e.getMessage() : e.toString();
            System.err.println("verbs4j rping " + (o.server ? "server" : "client") + ": " + m);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}
