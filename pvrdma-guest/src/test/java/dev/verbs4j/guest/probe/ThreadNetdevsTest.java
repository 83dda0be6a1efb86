package dev.verbs4j.guest.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ThreadNetdevsTest {
    @Test
    void parsesTheInterfaceNamesOfProcNetDev() {
        String text = """
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                    lo:     120       2    0    0    0     0          0         0      120       2    0    0    0     0       0          0
                    n0:12345678      99    0    0    0     0          0         0  4567890      98    0    0    0     0       0          0
                """;
        assertEquals(List.of("lo", "n0"), List.copyOf(ThreadNetdevs.parse(text)));
    }

    @Test
    void theCallingThreadsNamespaceHasALoopback() {
        Set<String> here = ThreadNetdevs.current().orElseThrow(() -> new AssertionError("/proc/thread-self/net/dev unreadable"));
        assertTrue(here.contains("lo"), here.toString());
    }
}
