package dev.verbs4j.examples;

import java.util.Map;

/**
 * The command line of ibv_rc_pingpong / ibv_ud_pingpong (rdma-core 44), parsed with the same
 * rules, defaults and limits. With no operand the program is the server; one operand is the
 * server's host name and makes it the client.
 */
final class PingpongOptions {
    /** Which of the two programs: they differ in a few options and defaults. */
    enum Flavor {
        RC("rc-pingpong", 4096, "p:d:i:s:m:r:n:l:eg:oOPtcjNT:"),
        // ud_pingpong.c's usage text says 2048, but its code starts from 1024; the code is what peers see
        UD("ud-pingpong", 1024, "p:d:i:s:r:n:l:eg:cT:");

        final String command;
        final int defaultSize;
        final String shortSpec;

        Flavor(String command, int defaultSize, String shortSpec) {
            this.command = command;
            this.defaultSize = defaultSize;
            this.shortSpec = shortSpec;
        }
    }

    static final int DEFAULT_PORT = 18515;

    private static final Map<String, Character> LONG_NAMES = Map.ofEntries(
            Map.entry("port", 'p'), Map.entry("ib-dev", 'd'), Map.entry("ib-port", 'i'), Map.entry("size", 's'),
            Map.entry("mtu", 'm'), Map.entry("rx-depth", 'r'), Map.entry("iters", 'n'), Map.entry("sl", 'l'),
            Map.entry("events", 'e'), Map.entry("gid-idx", 'g'), Map.entry("chk", 'c'), Map.entry("odp", 'o'),
            Map.entry("iodp", 'O'), Map.entry("prefetch", 'P'), Map.entry("ts", 't'), Map.entry("dm", 'j'),
            Map.entry("new_send", 'N'), Map.entry("timeout", 'T'));

    final Flavor flavor;
    int port = DEFAULT_PORT;
    String device;
    int ibPort = 1;
    int size;
    int mtu = 1024;
    int rxDepth = 500;
    int iters = 1000;
    int serviceLevel;
    boolean events;
    int gidIndex = -1;
    boolean check;
    String serverName;
    /** seconds any wait for the peer may take: TCP reads, completions (verbs4j only: --timeout). */
    int timeoutSeconds = 30;

    private PingpongOptions(Flavor flavor) {
        this.flavor = flavor;
        this.size = flavor.defaultSize;
    }

    boolean isClient() {
        return serverName != null;
    }

    /** Thrown for a command line the C tool would answer with its usage text and exit status 1. */
    static final class BadCommandLine extends Exception {
        BadCommandLine(String message) {
            super(message);
        }
    }

    /** Thrown for --help / -h: print the usage and exit 0. */
    static final class HelpRequested extends Exception {
        HelpRequested() {
            super("help");
        }
    }

    static PingpongOptions parse(Flavor flavor, String[] args) throws BadCommandLine, HelpRequested {
        for (String a : args) {
            if (a.equals("--help") || a.equals("-h")) {
                throw new HelpRequested();
            }
        }
        Getopt.Parsed parsed;
        try {
            Map<String, Character> longNames = flavor == Flavor.RC ? LONG_NAMES
                    : Map.ofEntries(LONG_NAMES.entrySet().stream()
                            .filter(e -> flavor.shortSpec.indexOf(e.getValue()) >= 0).toArray(Map.Entry[]::new));
            parsed = Getopt.parse(args, flavor.shortSpec, longNames);
        } catch (Getopt.UsageException e) {
            throw new BadCommandLine(e.getMessage());
        }
        PingpongOptions o = new PingpongOptions(flavor);
        for (Getopt.Opt opt : parsed.options()) {
            String v = opt.value();
            switch (opt.letter()) {
                case 'p' -> {
                    long port = flavor == Flavor.RC ? CNumbers.strtoul(v) : CNumbers.strtol(v) & 0xFFFF_FFFFL;
                    if (port > 65535) {
                        throw new BadCommandLine("port " + v + " is out of range (0..65535)");
                    }
                    o.port = (int) port;
                }
                case 'd' -> o.device = v;
                case 'i' -> {
                    o.ibPort = CNumbers.strtol(v);
                    if (o.ibPort < 1) {
                        throw new BadCommandLine("IB port " + v + " must be 1 or more");
                    }
                }
                case 's' -> o.size = (int) CNumbers.strtoul(v);
                case 'm' -> {
                    o.mtu = CNumbers.strtol(v);
                    if (!isPathMtu(o.mtu)) {
                        throw new BadCommandLine("MTU " + v + " is not one of 256, 512, 1024, 2048, 4096");
                    }
                }
                case 'r' -> o.rxDepth = (int) CNumbers.strtoul(v);
                case 'n' -> o.iters = (int) CNumbers.strtoul(v);
                case 'l' -> o.serviceLevel = CNumbers.strtol(v);
                case 'e' -> o.events = true;
                case 'g' -> o.gidIndex = CNumbers.strtol(v);
                case 'c' -> o.check = true;
                case 'T' -> {
                    o.timeoutSeconds = CNumbers.strtol(v);
                    if (o.timeoutSeconds < 1) {
                        throw new BadCommandLine("--timeout needs a number of seconds >= 1, got '" + v + "'");
                    }
                }
                case 'o', 'O', 'P', 't', 'j', 'N' -> throw new BadCommandLine("option -" + opt.letter()
                        + " (on-demand paging, timestamps, device memory, new send API) is not supported by verbs4j "
                        + flavor.command);
                default -> throw new BadCommandLine("invalid option -- '" + opt.letter() + "'");
            }
        }
        if (parsed.operands().size() > 1) {
            throw new BadCommandLine("at most one server host name, got " + parsed.operands());
        }
        if (parsed.operands().size() == 1) {
            o.serverName = parsed.operands().getFirst();
        }
        if (o.size < 1 || o.rxDepth < 1 || o.iters < 1) {
            throw new BadCommandLine("size, rx-depth and iters must be at least 1");
        }
        return o;
    }

    static boolean isPathMtu(int bytes) {
        return bytes == 256 || bytes == 512 || bytes == 1024 || bytes == 2048 || bytes == 4096;
    }

    static String usage(Flavor flavor) {
        String prog = "verbs4j " + flavor.command;
        StringBuilder s = new StringBuilder();
        s.append("Usage:\n");
        s.append("  ").append(prog).append("            start a server and wait for connection\n");
        s.append("  ").append(prog).append(" <host>     connect to server at <host>\n\n");
        s.append("Options:\n");
        s.append("  -p, --port=<port>      listen on/connect to port <port> (default 18515)\n");
        s.append("  -d, --ib-dev=<dev>     use IB device <dev> (default first device found)\n");
        s.append("  -i, --ib-port=<port>   use port <port> of IB device (default 1)\n");
        s.append("  -s, --size=<size>      size of message to exchange (default ").append(flavor.defaultSize)
                .append(")\n");
        if (flavor == Flavor.RC) {
            s.append("  -m, --mtu=<size>       path MTU (default 1024)\n");
        }
        s.append("  -r, --rx-depth=<dep>   number of receives to post at a time (default 500)\n");
        s.append("  -n, --iters=<iters>    number of exchanges (default 1000)\n");
        if (flavor == Flavor.RC) {
            s.append("  -l, --sl=<sl>          service level value\n");
        } else {
            s.append("  -l, --sl=<SL>          send messages with service level <SL> (default 0)\n");
        }
        s.append("  -e, --events           sleep on CQ events (default poll)\n");
        s.append("  -g, --gid-idx=<gid index> local port gid index\n");
        s.append("  -c, --chk              validate received buffer\n");
        s.append("      --timeout=<sec>    longest wait for the peer at any step (default 30; verbs4j only)\n");
        s.append("  -h, --help             this text\n");
        s.append("\nOn RoCE (rxe, PVRDMA) -g is required: the port has no LID.\n");
        s.append("Every wait is bounded: a peer that stops answering ends the run with an error, not a hang.\n");
        return s.toString();
    }
}
