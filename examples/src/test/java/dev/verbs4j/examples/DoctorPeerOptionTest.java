package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.cli.Cli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code doctor --peer}'s forms: HOST, HOST:PORT, [IPV6]:PORT; anything else is a usage error. */
class DoctorPeerOptionTest {

    @Test
    void hostPortAndBracketedAddresses() {
        DoctorCommand d = parsed();
        assertArrayEquals(new String[] {"server1", "18515"}, d.hostAndPort("server1"));
        assertArrayEquals(new String[] {"10.0.0.2", "4791"}, d.hostAndPort("10.0.0.2:4791"));
        assertArrayEquals(new String[] {"fe80::1", "7"}, d.hostAndPort("[fe80::1]:7"));
        assertArrayEquals(new String[] {"::1", "18515"}, d.hostAndPort("[::1]"));
        assertArrayEquals(new String[] {"::1", "18515"}, d.hostAndPort("::1"));
        for (String bad : new String[] {"h:0", "h:65536", "h:x", ":5", "[::1]x"}) {
            assertThrows(CommandLine.ParameterException.class, () -> d.hostAndPort(bad), bad);
        }
    }

    @Test
    void aBadPeerIsOneLineAndExitTwo() {
        CommandLine cl = Cli.commandLine(new CommandLine(DoctorCommand.class));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertTrue(cl.execute("--peer", "h:99999") == Cli.USAGE_ERROR, err.toString());
        assertTrue(err.toString().startsWith("verbs4j doctor: --peer h:99999: expected HOST[:PORT]"), err.toString());
    }

    private static DoctorCommand parsed() {
        CommandLine cl = Cli.commandLine(new CommandLine(DoctorCommand.class));
        cl.parseArgs();
        return cl.getCommand();
    }
}
