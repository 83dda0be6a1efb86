package dev.verbs4j.examples;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/** rping's command line (rdma-core 44): getopt "a:I:Pp:C:S:t:scvVdq", same limits and defaults. */
final class RpingOptions {
    static final int DEFAULT_PORT = 7174;
    static final int DEFAULT_SIZE = 64;
    /** rping exits with EINVAL for a bad command line. */
    static final int EXIT_USAGE = 22;

    Boolean server;
    InetAddress address;
    InetAddress sourceAddress;
    int port = DEFAULT_PORT;
    int size = DEFAULT_SIZE;
    /** 0: ping until the peer goes away. */
    int count;
    boolean verbose;
    boolean validate;
    boolean debug;
    boolean persistent;
    boolean selfCreatedQp;
    /** seconds every wait for the peer may take (verbs4j only: --timeout). */
    int timeoutSeconds = 30;

    static final class BadCommandLine extends Exception {
        final boolean showUsage;

        BadCommandLine(String message, boolean showUsage) {
            super(message);
            this.showUsage = showUsage;
        }
    }

    static final class HelpRequested extends Exception {
        HelpRequested() {
            super("help");
        }
    }

    static RpingOptions parse(String[] args) throws BadCommandLine, HelpRequested {
        for (String a : args) {
            if (a.equals("--help") || a.equals("-h")) {
                throw new HelpRequested();
            }
        }
        Getopt.Parsed parsed;
        try {
            parsed = Getopt.parse(args, "a:I:Pp:C:S:t:scvVdqT:", Map.of("timeout", 'T'));
        } catch (Getopt.UsageException e) {
            throw new BadCommandLine(e.getMessage(), true);
        }
        RpingOptions o = new RpingOptions();
        for (Getopt.Opt opt : parsed.options()) {
            String v = opt.value();
            switch (opt.letter()) {
                case 'a' -> o.address = resolve(v);
                case 'I' -> o.sourceAddress = resolve(v);
                case 'P' -> o.persistent = true;
                case 'p' -> o.port = CNumbers.atoi(v) & 0xFFFF;
                case 's' -> o.server = true;
                case 'c' -> o.server = false;
                case 'S' -> {
                    o.size = CNumbers.atoi(v);
                    if (o.size < RpingMessages.MIN_SIZE || o.size > RpingMessages.MAX_SIZE_EXCLUSIVE - 1) {
                        throw new BadCommandLine("Invalid size " + o.size + " (valid range is " + RpingMessages.MIN_SIZE
                                + " to " + RpingMessages.MAX_SIZE_EXCLUSIVE + ")", false);
                    }
                }
                case 'C' -> {
                    o.count = CNumbers.atoi(v);
                    if (o.count < 0) {
                        throw new BadCommandLine("Invalid count " + o.count, false);
                    }
                }
                case 'v' -> o.verbose = true;
                case 'V' -> o.validate = true;
                case 'd' -> o.debug = true;
                case 'q' -> o.selfCreatedQp = true;
                case 'T' -> {
                    o.timeoutSeconds = CNumbers.atoi(v);
                    if (o.timeoutSeconds < 1) {
                        throw new BadCommandLine("--timeout needs a number of seconds >= 1, got '" + v + "'", false);
                    }
                }
                default -> throw new BadCommandLine("invalid option -- '" + opt.letter() + "'", true);
            }
        }
        if (!parsed.operands().isEmpty()) {
            throw new BadCommandLine("unexpected operand " + parsed.operands().getFirst(), true);
        }
        if (o.server == null) {
            throw new BadCommandLine("say -s (server) or -c (client)", true);
        }
        if (!o.server && o.address == null) {
            throw new BadCommandLine("the client needs the server's address: -a addr", true);
        }
        if (o.persistent && !o.server) {
            throw new BadCommandLine("-P applies to the server (-s) only", true);
        }
        return o;
    }

    private static InetAddress resolve(String name) throws BadCommandLine {
        try {
            return InetAddress.getByName(name);
        } catch (UnknownHostException e) {
            throw new BadCommandLine("getaddrinfo failed (" + e.getMessage() + ") - invalid hostname or IP address",
                    false);
        }
    }

    static String usage() {
        return """
                verbs4j rping -s [-vVd] [-S size] [-C count] [-a addr] [-p port]
                verbs4j rping -c [-vVd] [-S size] [-C count] [-I addr] -a addr [-p port]
                \t-c\t\tclient side
                \t-I\t\tSource address to bind to for client.
                \t-s\t\tserver side.  To bind to any address with IPv6 use -a ::0
                \t-v\t\tdisplay ping data to stdout
                \t-V\t\tvalidate ping data
                \t-d\t\tdebug printfs
                \t-S size \tping data size
                \t-C count\tping count times
                \t-a addr\t\taddress
                \t-p port\t\tport
                \t-P\t\tpersistent server mode allowing multiple connections
                \t-q\t\tuse self-created, self-modified QP
                \t--timeout sec\tlongest wait for the peer at any step (default 30; verbs4j only)
                """;
    }
}
