package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.nvmf.types.DiscoveryEntry;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Connect, identify, discovery and block I/O against the rig's nvmet target, by this host alone. */
@Tag("rdma-nvmet")
class NvmfBasicsNvmetTest {

    @Test
    void connectsIdentifiesWritesAndReadsBack() {
        try (NvmfController c = NvmfController.connect(NvmetRig.options().withIoQueues(2));
             IoBuffer out = c.allocateBuffer(3 << 20);
             IoBuffer in = c.allocateBuffer(3 << 20)) {
            assertEquals(NvmetRig.nqn(), c.identity().subsystemNqn());
            NamespaceIdentity ns = c.namespace(1);
            assertEquals(512, ns.blockSize());
            assertEquals(256L << 20, ns.sizeBytes());
            byte[] pattern = new byte[3 << 20];
            new Random(16).nextBytes(pattern);
            out.segment().copyFrom(java.lang.foreign.MemorySegment.ofArray(pattern));
            int blocks = pattern.length / 512;
            c.write(1, 2048, blocks, out, 0);          // 3 MiB: split at MDTS
            c.write(1, 100, 8, out, 0);                // 4 KiB: in capsule
            c.flush(1);
            c.read(1, 2048, blocks, in, 0);
            assertArrayEquals(pattern, in.segment().toArray(ValueLayout.JAVA_BYTE));
            in.segment().fill((byte) 0);
            c.read(1, 100, 8, in, 0);
            assertArrayEquals(java.util.Arrays.copyOf(pattern, 4096),
                    in.segment().asSlice(0, 4096).toArray(ValueLayout.JAVA_BYTE));
            c.writeZeroes(1, 100, 8);
            c.read(1, 100, 8, in, 0);
            assertTrue(in.segment().asSlice(0, 4096).mismatch(
                    java.lang.foreign.MemorySegment.ofArray(new byte[4096])) == -1, "Write Zeroes left data");
        }
    }

    @Test
    void discoveryListsTheSubsystem() {
        List<DiscoveryEntry> entries = NvmfController.discover(NvmetRig.options());
        assertTrue(entries.stream().anyMatch(e -> e.subsystemNqn().equals(NvmetRig.nqn())
                && e.serviceId().equals(String.valueOf(NvmetRig.port())) && e.transportName().equals("rdma")), entries::toString);
    }
}
