package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What AUTO chooses between two processes of the rig's guest, where both could do RDMA (rxe0):
 * shared memory when both run as one user in one network namespace; RDMA, with the reason shared
 * memory was not chosen, when the peer runs under another uid (behind {@code setpriv}). The host's
 * ShmAutoSelectionTest asks the same without a device, where the fallback is TCP.
 * <pre>ci/rig run --topology single mvn -B -o -ntp -P rig -pl pvrdma-guest surefire:test -Dtest=SharedMemoryAutoRigTest</pre>
 */
@Tag("rdma")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SharedMemoryAutoRigTest {
    @Test
    void twoProcessesOfOneGuestShareMemoryThoughBothCouldDoRdma() throws Exception {
        LocalAutoPeer.echoesOverSharedMemory();
    }

    @Test
    void aPeerUnderAnotherUidGetsRdmaAndTheReason() throws Exception {
        String peer = LocalAutoPeer.echoesAsNobody("both sides can do RDMA; not shm: the peer runs as uid "
                + LocalAutoPeer.NOBODY + ", this process as 0");
        assertTrue(peer.lines().anyMatch(l -> l.startsWith("transport: rdma (")), peer);
    }
}
