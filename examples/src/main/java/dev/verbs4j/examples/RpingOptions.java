package dev.verbs4j.examples;

import dev.verbs4j.examples.cli.Cli;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * rping's command line (rdma-core 44): getopt "a:I:Pp:C:S:t:scvVdq" with the same limits and
 * defaults, numbers read with atoi. A bad command line exits with EINVAL (22), as rping does.
 */
@Command(name = "rping", separator = " ",
        customSynopsis = {"${COMMAND-FULL-NAME} -s [-vVd] [-S size] [-C count] [-a addr] [-p port]",
                "       ${COMMAND-FULL-NAME} -c [-vVd] [-S size] [-C count] [-I addr] -a addr [-p port]"},
        description = "rdma_cm RDMA read/write ping, interoperates with rping (same options)")
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

    @Spec
    CommandSpec spec;

    /** A wrong value that rping reports without its usage text. */
    static final class BadValue extends ParameterException {
        BadValue(CommandLine cl, String message) {
            super(cl, message);
        }
    }

    /** The program's command line: {@link #fromCommandLine} gives the options after parsing. */
    static CommandLine commandLine() {
        CommandLine cl = Cli.commandLine(new RpingOptions());
        cl.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("verbs4j rping: " + e.getMessage());
            if (!(e instanceof BadValue)) {
                e.getCommandLine().usage(e.getCommandLine().getOut());
            }
            return EXIT_USAGE;
        });
        return cl;
    }

    static RpingOptions fromCommandLine(CommandLine cl) {
        RpingOptions o = cl.getCommand();
        o.validate();
        return o;
    }

    /** Parses and checks a command line (tests; the program goes through picocli's execute). */
    static RpingOptions parse(String... args) {
        CommandLine cl = commandLine();
        cl.parseArgs(args);
        return fromCommandLine(cl);
    }

    @Option(names = "-c", description = "client side")
    void client(boolean v) {
        server = v ? Boolean.FALSE : server;
    }

    @Option(names = "-s", description = "server side.  To bind to any address with IPv6 use -a ::0")
    void server(boolean v) {
        server = v ? Boolean.TRUE : server;
    }

    @Option(names = "-I", paramLabel = "addr", description = "Source address to bind to for client.")
    void sourceAddress(String v) {
        sourceAddress = resolve(v);
    }

    @Option(names = "-v", description = "display ping data to stdout")
    void verbose(boolean v) {
        verbose |= v;
    }

    @Option(names = "-V", description = "validate ping data")
    void validate(boolean v) {
        validate |= v;
    }

    @Option(names = "-d", description = "debug printfs")
    void debug(boolean v) {
        debug |= v;
    }

    @Option(names = "-S", paramLabel = "size", description = "ping data size")
    void size(String v) {
        size = CNumbers.atoi(v);
        if (size < RpingMessages.MIN_SIZE || size > RpingMessages.MAX_SIZE_EXCLUSIVE - 1) {
            throw new BadValue(spec.commandLine(), "Invalid size " + size + " (valid range is " + RpingMessages.MIN_SIZE
                    + " to " + RpingMessages.MAX_SIZE_EXCLUSIVE + ")");
        }
    }

    @Option(names = "-C", paramLabel = "count", description = "ping count times")
    void count(String v) {
        count = CNumbers.atoi(v);
        if (count < 0) {
            throw new BadValue(spec.commandLine(), "Invalid count " + count);
        }
    }

    @Option(names = "-a", paramLabel = "addr", description = "address")
    void address(String v) {
        address = resolve(v);
    }

    @Option(names = "-p", paramLabel = "port", description = "port")
    void port(String v) {
        port = CNumbers.atoi(v) & 0xFFFF;
    }

    @Option(names = "-P", description = "persistent server mode allowing multiple connections")
    void persistent(boolean v) {
        persistent |= v;
    }

    @Option(names = "-q", description = "use self-created, self-modified QP")
    void selfCreatedQp(boolean v) {
        selfCreatedQp |= v;
    }

    @Option(names = {"-T", "--timeout"}, paramLabel = "sec",
            description = "longest wait for the peer at any step (default 30; verbs4j only)")
    void timeout(String v) {
        timeoutSeconds = CNumbers.atoi(v);
        if (timeoutSeconds < 1) {
            throw new BadValue(spec.commandLine(), "--timeout needs a number of seconds >= 1, got '" + v + "'");
        }
    }

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    @Parameters(arity = "0..*", hidden = true)
    List<String> operands = List.of();

    private void validate() {
        if (!operands.isEmpty()) {
            throw Cli.usageError(spec, "unexpected operand " + operands.getFirst());
        }
        if (server == null) {
            throw Cli.usageError(spec, "say -s (server) or -c (client)");
        }
        if (!server && address == null) {
            throw Cli.usageError(spec, "the client needs the server's address: -a addr");
        }
        if (persistent && !server) {
            throw Cli.usageError(spec, "-P applies to the server (-s) only");
        }
    }

    private InetAddress resolve(String name) {
        try {
            return InetAddress.getByName(name);
        } catch (UnknownHostException e) {
            throw new BadValue(spec.commandLine(), "getaddrinfo failed (" + e.getMessage()
                    + ") - invalid hostname or IP address");
        }
    }
}
