package dev.verbs4j.guest.probe;

import dev.verbs4j.guest.doctor.RecordedTrees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.verbs.DeviceAttributes;
import dev.verbs4j.verbs.QpType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProviderLimitsTest {
    private static final ProviderInfo PVRDMA = RdmaDeviceScan.scan(RecordedTrees.tree("synthesized-pvrdma-active")).getFirst();
    private static final ProviderInfo RXE = RdmaDeviceScan.scan(RecordedTrees.tree("rxe")).getFirst();

    private static DeviceAttributes attributes(int maxSrq, int atomicCap) {
        return new DeviceAttributes("3.0.0", 0, 1L << 40, 0x15ad, 0x0820, 1, 32768, 4096, 0, 16, 16, 4096, 262144,
                65536, 4096, 16, 16, atomicCap, 65536, maxSrq, maxSrq > 0 ? 4096 : 0, maxSrq > 0 ? 16 : 0, 1, 1);
    }

    @Test
    void pvrdmaRefusesUcQueuePairsWithTheReason() {
        List<String> why = ProviderLimits.of(PVRDMA, Optional.empty(), 0).whyNot(CapabilityRequest.of(QpType.UC));
        assertEquals(1, why.size());
        assertTrue(why.getFirst().contains("RC+UD queue pairs only, not UC"), why.getFirst());
    }

    @Test
    void pvrdmaRefusesInlineDataAndCutsItToZero() {
        ProviderLimits limits = ProviderLimits.of(PVRDMA, Optional.empty(), 0);
        List<String> why = limits.whyNot(CapabilityRequest.of(QpType.RC).withInline(64));
        assertEquals(1, why.size());
        assertTrue(why.getFirst().contains("no inline data (max_inline_data 0)"), why.getFirst());
        assertEquals(0, limits.inlineFor(64));
        assertEquals(0, limits.maxInlineData());
        assertEquals(1, limits.completionVectors());
        assertTrue(limits.needsGrh());
    }

    @Test
    void pvrdmaAcceptsPlainRcAndUd() {
        ProviderLimits limits = ProviderLimits.of(PVRDMA, Optional.empty(), 0);
        assertEquals(List.of(), limits.whyNot(CapabilityRequest.of(QpType.RC)));
        assertEquals(List.of(), limits.whyNot(CapabilityRequest.of(QpType.UD)));
    }

    @Test
    void pvrdmaSrqAndAtomicsOnlyWhenTheDeviceReportsThem() {
        CapabilityRequest both = CapabilityRequest.of(QpType.RC).withSrq().withAtomics();
        List<String> unqueried = ProviderLimits.of(PVRDMA, Optional.empty(), 0).whyNot(both);
        assertEquals(2, unqueried.size(), unqueried.toString());
        assertTrue(unqueried.getFirst().contains("not confirmed"), unqueried.toString());
        List<String> without = ProviderLimits.of(PVRDMA, Optional.of(attributes(0, DeviceAttributes.ATOMIC_NONE)), 1)
                .whyNot(both);
        assertTrue(without.get(0).contains("max_srq 0"), without.toString());
        assertTrue(without.get(1).contains("atomic_cap NONE"), without.toString());
        assertEquals(List.of(), ProviderLimits.of(PVRDMA, Optional.of(attributes(4096, 1)), 1).whyNot(both));
    }

    @Test
    void pvrdmaHasOneCompletionVectorWhateverTheContextSays() {
        assertEquals(1, ProviderLimits.of(PVRDMA, Optional.of(attributes(0, 0)), 4).completionVectors());
    }

    @Test
    void rxeTakesUcAndLeavesInlineToQpCreation() {
        ProviderLimits limits = ProviderLimits.of(RXE, Optional.empty(), 2);
        assertEquals(List.of(), limits.whyNot(CapabilityRequest.of(QpType.UC).withInline(256).withSrq().withAtomics()));
        assertEquals(256, limits.inlineFor(256));
        assertEquals(2, limits.completionVectors());
    }

    @Test
    void describesThePvrdmaLimitsInOneLine() {
        assertEquals("RC+UD QPs, no inline data, SRQ no (not reported), atomics no (not reported), "
                + "RDMA READ no (not reported), 1 completion vector, AH needs GRH",
                ProviderLimits.of(PVRDMA, Optional.empty(), 0).describe());
    }

    /**
     * What vmw_pvrdma0 reports under QEMU 7.2's emulation (ibv_devinfo -v in the rig's pvrdma
     * topology): max_srq 512, atomic_cap ATOMIC_NONE, max_qp_rd_atom and max_qp_init_rd_atom 0.
     */
    @Test
    void theEmulatedDeviceOffersSrqButNeitherAtomicsNorReads() {
        DeviceAttributes emulated = new DeviceAttributes("0.0.014", 0x505400fffe4d0002L, 0x8000000L, 0, 0x0820, 0,
                1024, 10467, 0, 4, 4, 2048, 28672, 1024, 1024, 0, 0, DeviceAttributes.ATOMIC_NONE, 64, 512, 12288, 4,
                1, 1);
        ProviderLimits limits = ProviderLimits.of(PVRDMA, Optional.of(emulated), 1);
        assertTrue(limits.srq());
        assertTrue(!limits.atomics() && !limits.reads(), limits.describe());
        assertEquals("RC+UD QPs, no inline data, SRQ yes, atomics no, RDMA READ no, 1 completion vector, AH needs GRH",
                limits.describe());
    }
}
