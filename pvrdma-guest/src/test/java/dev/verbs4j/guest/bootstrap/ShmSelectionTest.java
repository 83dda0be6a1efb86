package dev.verbs4j.guest.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.TransportKind;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.SameHostFacts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import org.junit.jupiter.api.Test;

/** When shared memory is chosen, forced or by AUTO, and the reasons it is not, on stated facts. */
class ShmSelectionTest {
    private static final Capabilities CAN = Capabilities.usable("rxe0", 1, 1, "RoCE v2", -1);
    private static final Capabilities NO_DEVICE = Capabilities.lacking(CapabilitiesGap.NO_DEVICE, "");
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
    void autoChoosesSharedMemoryBeforeRdmaOnOneKernelNamespaceAndUser() {
        assertEquals("shm (reason: " + TransportSelector.SAME_HOST + ")",
                TransportSelector.choose(AUTO, CAN, HERE, AUTO, CAN, PEER).describe());
        assertEquals(TransportKind.SHM, TransportSelector.choose(AUTO, NO_DEVICE, HERE, AUTO, NO_DEVICE, PEER).kind());
    }

    @Test
    void autoFallsBackToRdmaOrTcpAndSaysWhyNotShm() {
        TransportChoice uid = TransportSelector.choose(AUTO, CAN, HERE, AUTO, CAN,
                new SameHostFacts("boot-1", PEER.netns(), 1001, 11));
        assertEquals(TransportKind.RDMA, uid.kind());
        assertEquals("both sides can do RDMA; not shm: the peer runs as uid 1001, this process as 1000", uid.reason());
        TransportChoice netns = TransportSelector.choose(AUTO, NO_DEVICE, HERE, AUTO, CAN,
                new SameHostFacts("boot-1", "net:[4026532000]", 1000, 11));
        assertEquals("tcp (reason: no RDMA device; not shm: the peer is in another network namespace "
                + "(net:[4026532000], here net:[4026531840]))", netns.describe());
        TransportChoice kernel = TransportSelector.choose(AUTO, CAN, HERE, AUTO, CAN,
                new SameHostFacts("boot-2", PEER.netns(), 1000, 11));
        assertTrue(kernel.isRdma() && kernel.reason().contains("not shm: the peer runs on another kernel"),
                kernel.reason());
    }

    @Test
    void forcingRdmaOrTcpLeavesSharedMemoryOut() {
        assertEquals("forced by configuration",
                TransportSelector.choose(TransportPreference.RDMA, CAN, HERE, AUTO, CAN, PEER).reason());
        assertEquals("tcp (reason: forced by the peer's configuration)",
                TransportSelector.choose(AUTO, CAN, HERE, TransportPreference.TCP, CAN, PEER).describe());
    }

    @Test
    void aFailedSetUpFallsBackWithItsReason() {
        assertEquals("both sides can do RDMA; shm set-up failed: peer: cannot map",
                TransportSelector.afterShmFailed(AUTO, CAN, AUTO, CAN, "peer: cannot map").reason());
        assertEquals("tcp (reason: peer has no RDMA device; shm set-up failed: x)",
                TransportSelector.afterShmFailed(AUTO, CAN, AUTO, NO_DEVICE, "x").describe());
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
