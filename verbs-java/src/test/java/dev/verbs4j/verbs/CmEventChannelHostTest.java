package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** On a host without the RDMA CM, creating a channel fails with an explanation, not a crash. */
class CmEventChannelHostTest {

    @Test
    void withoutRdmaCmTheChannelCannotBeCreatedAndSaysWhy() {
        assumeFalse(Files.exists(Path.of("/dev/infiniband/rdma_cm")), "this host has the RDMA CM");
        VerbsException e = assertThrows(VerbsException.class, CmEventChannel::create);
        assertTrue(e.getMessage().startsWith("cannot create an rdma_cm event channel"), e.getMessage());
        assertNotNull(e.hint(), e.getMessage());
    }
}
