package dev.verbs4j.examples.nvmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.verbs4j.nvmf.NvmfConnectOptions;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The reconnect options as nvme-cli spells them, on every nvmf subcommand's connection mixin. */
class ConnectOptionsTest {
    private static NvmfConnectOptions parse(Object command, String... args) {
        new CommandLine(command).parseArgs(args);
        ConnectOptions c = switch (command) {
            case IdentifyCommand i -> i.connection;
            case ReadCommand r -> r.connection;
            case WriteCommand w -> w.connection;
            case DiscoverCommand d -> d.connection;
            case BenchCommand b -> b.connection;
            default -> throw new AssertionError(command);
        };
        return c.toOptions(false);
    }

    @Test
    void defaultsAreLinuxs() {
        NvmfConnectOptions o = parse(new IdentifyCommand(), "-a", "127.0.0.1", "-n", "nqn.t");
        assertEquals(Duration.ofSeconds(10), o.reconnectDelay());
        assertEquals(Duration.ofSeconds(600), o.controllerLossTimeout());
        assertNull(o.hostAddress());
    }

    @Test
    void hostTransportAddressAsNvmeCliSpellsIt() throws Exception {
        assertEquals(InetAddress.getByName("127.0.0.2"),
                parse(new ReadCommand(), "-a", "127.0.0.1", "-w", "127.0.0.2").hostAddress());
        assertEquals(InetAddress.getByName("127.0.0.3"),
                parse(new BenchCommand(), "-a", "127.0.0.1", "--host-traddr", "127.0.0.3").hostAddress());
    }

    @Test
    void longAndShortSpellingsOnEverySubcommand() {
        for (Object cmd : new Object[] {new IdentifyCommand(), new ReadCommand(), new DiscoverCommand(), new BenchCommand()}) {
            NvmfConnectOptions o = parse(cmd, "-a", "127.0.0.1", "--reconnect-delay", "2", "--ctrl-loss-tmo", "-1");
            assertEquals(Duration.ofSeconds(2), o.reconnectDelay(), cmd.getClass().getSimpleName());
            assertEquals(Duration.ofSeconds(-1), o.controllerLossTimeout(), cmd.getClass().getSimpleName());
        }
        NvmfConnectOptions o = parse(new WriteCommand(), "-a", "127.0.0.1", "--data", "x", "-c", "3", "-l", "0");
        assertEquals(Duration.ofSeconds(3), o.reconnectDelay());
        assertEquals(Duration.ZERO, o.controllerLossTimeout());
    }
}
