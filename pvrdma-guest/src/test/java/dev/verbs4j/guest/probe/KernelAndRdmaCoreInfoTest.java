package dev.verbs4j.guest.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class KernelAndRdmaCoreInfoTest {

    private static KernelInfo kernel(String release) {
        return new KernelInfo("Linux", "amd64", release, 64);
    }

    @Test
    void comparesKernelReleases() {
        assertTrue(kernel("6.1.0-56-amd64").supportsRdmaNamespaces());
        assertTrue(kernel("5.5.0").supportsRdmaNamespaces());
        assertTrue(kernel("5.10.0-28-amd64").supportsRdmaNamespaces());
        assertFalse(kernel("5.4.0-150-generic").supportsRdmaNamespaces());
        assertFalse(kernel("4.19.0").supportsRdmaNamespaces());
        assertFalse(kernel("garbage").supportsRdmaNamespaces());
    }

    @Test
    void thisJvmIsSixtyFourBitLinux() {
        KernelInfo k = KernelInfo.current();
        assertTrue(k.isLinux(), k.toString());
        assertTrue(k.is64Bit(), k.toString());
        assertFalse(k.release().isEmpty());
    }

    @Test
    void rdmaCoreVersionFromTheLibraryFileName() {
        assertEquals(Optional.of("44.0"), RdmaCoreInfo.versionOfLibrary("libibverbs.so.1.14.44.0"));
        assertEquals(Optional.of("50.0"), RdmaCoreInfo.versionOfLibrary("libibverbs.so.1.14.50.0"));
        assertEquals(Optional.empty(), RdmaCoreInfo.versionOfLibrary("libibverbs.so.1"));
    }

    @Test
    void pciFunctionZeroOfTheSameSlot() {
        PciFunction pvrdma = new PciFunction("0000:0b:00.1", 0x15ad, 0x0820, "vmw_pvrdma", java.util.List.of());
        assertEquals(Optional.of("0000:0b:00.0"), pvrdma.functionZero());
        assertTrue(pvrdma.isPvrdma());
    }
}
