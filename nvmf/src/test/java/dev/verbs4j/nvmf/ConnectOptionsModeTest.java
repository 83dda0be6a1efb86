package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.loop.CompletionMode;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The progress thread's completion mode and the host address in the options: unset until given, copied by every with*. */
class ConnectOptionsModeTest {
    private static final NvmfConnectOptions BASE = NvmfConnectOptions.rdma("127.0.0.1", 4420, "nqn.2026-12.dev.verbs4j:t");

    @Test
    void adaptiveUnlessSetAndKeptByTheOtherSetters() {
        assertEquals(CompletionMode.ADAPTIVE, BASE.completionMode());
        NvmfConnectOptions busy = BASE.withCompletionMode(CompletionMode.BUSY_POLL);
        assertEquals(CompletionMode.BUSY_POLL, busy.completionMode());
        assertEquals(CompletionMode.ADAPTIVE, BASE.completionMode());
        assertEquals(CompletionMode.BUSY_POLL, busy.withProgressThread(true).withIoQueues(2).forDiscovery().completionMode());
    }

    @Test
    void hostAddressUnsetUntilGivenAndKeptByTheOtherSetters() throws Exception {
        assertNull(BASE.hostAddress());
        NvmfConnectOptions from = BASE.withHostAddress("127.0.0.2").withIoQueues(2).withQueueSize(64).forDiscovery();
        assertEquals(InetAddress.getByName("127.0.0.2"), from.hostAddress());
        assertNull(from.withHostAddress(null).hostAddress());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BASE.withHostAddress("no-such-host.invalid"));
        assertEquals("unknown host address 'no-such-host.invalid'", e.getMessage());
    }

    @Test
    void nullIsRefused() {
        assertThrows(NullPointerException.class, () -> BASE.withCompletionMode(null));
    }
}
