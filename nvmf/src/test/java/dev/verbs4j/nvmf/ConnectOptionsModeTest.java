package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.loop.CompletionMode;
import org.junit.jupiter.api.Test;

/** The progress thread's completion mode in the options: ADAPTIVE unless set, copied by every with*. */
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
    void nullIsRefused() {
        assertThrows(NullPointerException.class, () -> BASE.withCompletionMode(null));
    }
}
