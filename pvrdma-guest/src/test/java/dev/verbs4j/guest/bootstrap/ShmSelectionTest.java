package dev.verbs4j.guest.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportKind;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.SameHostFacts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import org.junit.jupiter.api.Test;

/** When shared memory is chosen, and the reasons it cannot be, on stated facts. */
class ShmSelectionTest {
    private static final Capabilities CAN = Capabilities.usable("rxe0", 1, 1, "RoCE v2", -1);
    private static final TransportPreference AUTO = TransportPreference.AUTO, SHM = TransportPreference.SHM;
    private static final SameHostFacts HERE = new SameHostFacts("boot-1", "net:[4026531840]", 1000, 10);
    private static final SameHostFacts PEER = new SameHostFacts("boot-1", "net:[4026531840]", 1000, 11);

    @Test
    void forcedByEitherSideBetweenProcessesOfOneKernelNamespaceAndUser() {
        assertEquals("shm (reason: forced by configuration)",
                TransportSelector.choose(SHM, CAN, HERE, AUTO, CAN, PEER).describe());
        assertEquals("shm (reason: forced by the peer's configuration)",
                TransportSelector.choose(AUTO, CAN, HERE, SHM, CAN, PEER).describe());
    }

    @Test
    void autoLeavesSharedMemoryOut() {
        assertEquals(TransportKind.RDMA, TransportSelector.choose(AUTO, CAN, HERE, AUTO, CAN, PEER).kind());
    }

    @Test
    void forcedAndImpossibleSaysWhichFactDiffers() {
        assertRefused("another kernel", new SameHostFacts("boot-2", PEER.netns(), 1000, 11));
        assertRefused("another network namespace", new SameHostFacts("boot-1", "net:[4026532000]", 1000, 11));
        assertRefused("uid 1001", new SameHostFacts("boot-1", PEER.netns(), 1001, 11));
        ChannelException e = assertThrows(ChannelException.class,
                () -> TransportSelector.choose(SHM, CAN, HERE, TransportPreference.TCP, CAN, PEER));
        assertTrue(e.getMessage().contains("one side forces shm and the other tcp"), e.getMessage());
    }

    @Test
    void theHelloCarriesDepthAndFacts() throws Exception {
        BootstrapHello hello = new BootstrapHello(SHM, 4096, 17, CAN, PEER);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        hello.writeTo(new DataOutputStream(bytes));
        assertEquals(hello, BootstrapHello.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
    }

    @Test
    void theLiveFactsOfThisProcessMatchThemselves() {
        SameHostFacts here = SameHostFacts.here();
        assertEquals(null, here.gapTo(here));
        assertEquals(ProcessHandle.current().pid(), here.pid());
    }

    private static void assertRefused(String why, SameHostFacts peer) {
        ChannelException e = assertThrows(ChannelException.class,
                () -> TransportSelector.choose(SHM, CAN, HERE, AUTO, CAN, peer));
        assertEquals(ChannelError.CONNECT_FAILED, e.error());
        assertTrue(e.getMessage().contains("shm is forced by configuration but") && e.getMessage().contains(why),
                e.getMessage());
    }
}
