package dev.verbs4j.examples;

import dev.verbs4j.examples.cli.Cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The command line of ibv_rc_pingpong / ibv_ud_pingpong (rdma-core 44): the same options, long
 * names, defaults and limits, numbers read with C's rules ({@link CNumbers}). With no operand the
 * program is the server; one operand is the server's host name and makes it the client. A bad
 * command line prints the usage on stdout and exits 1, as the C tools do.
 */
@Command(customSynopsis = {"  ${COMMAND-FULL-NAME}            start a server and wait for connection",
        "  ${COMMAND-FULL-NAME} <host>     connect to server at <host>"},
        synopsisHeading = "Usage:%n", optionListHeading = "%nOptions:%n",
        footer = {"%nOn RoCE (rxe, PVRDMA) -g is required: the port has no LID.",
                "Every wait is bounded: a peer that stops answering ends the run with an error, not a hang."})
final class PingpongOptions {
    /** Which of the two programs: they differ in a few options and defaults. */
    enum Flavor {
        RC("rc-pingpong", 4096, "RC send/receive ping-pong, interoperates with ibv_rc_pingpong (same options)"),
        // ud_pingpong.c's usage text says 2048, but its code starts from 1024; the code is what peers see
        UD("ud-pingpong", 1024, "UD send/receive ping-pong, interoperates with ibv_ud_pingpong (same options)");

        final String command;
        final int defaultSize;
        final String summary;

        Flavor(String command, int defaultSize, String summary) {
            this.command = command;
            this.defaultSize = defaultSize;
            this.summary = summary;
        }
    }

    static final int DEFAULT_PORT = 18515;
    /** The C tools' exit status for a bad command line. */
    static final int EXIT_USAGE = 1;
    /** rc_pingpong's options that ud_pingpong does not have. */
    private static final List<String> RC_ONLY = List.of("--mtu", "--odp");

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

    @Spec
    CommandSpec spec;

    private PingpongOptions(Flavor flavor) {
        this.flavor = flavor;
        this.size = flavor.defaultSize;
    }

    boolean isClient() {
        return serverName != null;
    }

    /** The program's command line: {@link #fromCommandLine} gives the options after parsing. */
    static CommandLine commandLine(Flavor flavor) {
        CommandLine cl = Cli.commandLine(new CommandLine(spec(flavor)));
        cl.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("verbs4j " + flavor.command + ": " + e.getMessage());
            e.getCommandLine().usage(e.getCommandLine().getOut());
            return EXIT_USAGE;
        });
        return cl;
    }

    /** The options of one flavor, named like the subcommand. */
    static CommandSpec spec(Flavor flavor) {
        PingpongOptions o = new PingpongOptions(flavor);
        CommandSpec spec = CommandSpec.forAnnotatedObject(o).name(flavor.command);
        spec.usageMessage().description(flavor.summary);
        if (flavor == Flavor.UD) {
            RC_ONLY.forEach(name -> spec.remove(spec.findOption(name)));
            describe(spec, "--sl", "<SL>", "send messages with service level <SL> (default 0)");
        }
        describe(spec, "--size", "<size>", "size of message to exchange (default " + flavor.defaultSize + ")");
        return spec;
    }

    private static void describe(CommandSpec spec, String option, String label, String description) {
        OptionSpec old = spec.findOption(option);
        spec.remove(old);
        spec.addOption(old.toBuilder().paramLabel(label).description(description).build());
    }

    static PingpongOptions fromCommandLine(CommandLine cl) {
        PingpongOptions o = cl.getCommand();
        o.validate();
        return o;
    }

    /** Parses and checks a command line (tests; the programs go through picocli's execute). */
    static PingpongOptions parse(Flavor flavor, String... args) {
        CommandLine cl = commandLine(flavor);
        cl.parseArgs(args);
        return fromCommandLine(cl);
    }

    @Option(names = {"-p", "--port"}, paramLabel = "<port>", description = "listen on/connect to port <port> (default 18515)")
    void port(String v) {
        long p = flavor == Flavor.RC ? CNumbers.strtoul(v) : CNumbers.strtol(v) & 0xFFFF_FFFFL;
        if (p > 65535) {
            throw bad("port " + v + " is out of range (0..65535)");
        }
        port = (int) p;
    }

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "<dev>", description = "use IB device <dev> (default first device found)")
    void device(String v) {
        device = v;
    }

    @Option(names = {"-i", "--ib-port"}, paramLabel = "<port>", description = "use port <port> of IB device (default 1)")
    void ibPort(String v) {
        ibPort = CNumbers.strtol(v);
        if (ibPort < 1) {
            throw bad("IB port " + v + " must be 1 or more");
        }
    }

    @Option(names = {"-s", "--size"}, paramLabel = "<size>")
    void size(String v) {
        size = (int) CNumbers.strtoul(v);
    }

    @Option(names = {"-m", "--mtu"}, paramLabel = "<size>", description = "path MTU (default 1024)")
    void mtu(String v) {
        mtu = CNumbers.strtol(v);
        if (!isPathMtu(mtu)) {
            throw bad("MTU " + v + " is not one of 256, 512, 1024, 2048, 4096");
        }
    }

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "<dep>", description = "number of receives to post at a time (default 500)")
    void rxDepth(String v) {
        rxDepth = (int) CNumbers.strtoul(v);
    }

    @Option(names = {"-n", "--iters"}, paramLabel = "<iters>", description = "number of exchanges (default 1000)")
    void iters(String v) {
        iters = (int) CNumbers.strtoul(v);
    }

    @Option(names = {"-l", "--sl"}, paramLabel = "<sl>", description = "service level value")
    void serviceLevel(String v) {
        serviceLevel = CNumbers.strtol(v);
    }

    @Option(names = {"-e", "--events"}, description = "sleep on CQ events (default poll)")
    void events(boolean v) {
        events |= v;
    }

    @Option(names = {"-g", "--gid-idx"}, paramLabel = "<gid index>", description = "local port gid index")
    void gidIndex(String v) {
        gidIndex = CNumbers.strtol(v);
    }

    @Option(names = {"-c", "--chk"}, description = "validate received buffer")
    void check(boolean v) {
        check |= v;
    }

    /** ibv_rc_pingpong's -o -O -P -t -j -N: accepted by the C tool, features verbs4j does not offer. */
    @Option(names = {"-o", "--odp", "-O", "--iodp", "-P", "--prefetch", "-t", "--ts", "-j", "--dm", "-N", "--new_send"},
            hidden = true)
    void unsupported(boolean v) {
        if (v) {
            throw bad("options -o -O -P -t -j -N (on-demand paging, timestamps, device memory, new send API) are not "
                + "supported by verbs4j " + flavor.command);
        }
    }

    @Option(names = {"-T", "--timeout"}, paramLabel = "<sec>",
            description = "longest wait for the peer at any step (default 30; verbs4j only)")
    void timeout(String v) {
        timeoutSeconds = CNumbers.strtol(v);
        if (timeoutSeconds < 1) {
            throw bad("--timeout needs a number of seconds >= 1, got '" + v + "'");
        }
    }

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    @Parameters(arity = "0..*", paramLabel = "<host>", hidden = true)
    List<String> operands = List.of();

    private void validate() {
        if (operands.size() > 1) {
            throw bad("at most one server host name, got " + operands);
        }
        serverName = operands.isEmpty() ? null : operands.getFirst();
        if (size < 1 || rxDepth < 1 || iters < 1) {
            throw bad("size, rx-depth and iters must be at least 1");
        }
    }

    private ParameterException bad(String message) {
        return Cli.usageError(spec, message);
    }

    static boolean isPathMtu(int bytes) {
        return bytes == 256 || bytes == 512 || bytes == 1024 || bytes == 2048 || bytes == 4096;
    }
}
