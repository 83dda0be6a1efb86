package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every AutoCloseable of the API may be closed more than once, as AutoCloseable asks: later calls do nothing. */
@Tag("rdma-nvmet")
class CloseTwiceNvmetTest {

    @Test
    void aControllerAndItsBuffersCloseTwice() {
        NvmfController c = NvmfController.connect(NvmetRig.options());
        IoBuffer own = c.allocateBuffer(4096);
        IoBuffer left = c.allocateBuffer(4096);
        c.read(1, 0, 8, own, 0);
        own.close();
        assertDoesNotThrow(own::close);
        c.close();                              // closes `left` too
        assertDoesNotThrow(c::close);
        assertDoesNotThrow(left::close);
    }

    @Test
    void aDiscoveryControllerClosesTwice() {
        NvmfController c = NvmfController.connect(NvmetRig.options().forDiscovery());
        assertFalse(c.discoveryLog().isEmpty());
        c.close();
        assertDoesNotThrow(c::close);
    }
}
