package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.verbs4j.nvmf.types.ControllerIdentity;
import dev.verbs4j.nvmf.types.DiscoveryEntry;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.rig.Commands;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * This host against the kernel's own initiator (nvme-rdma through nvme-cli) on the same target:
 * bytes written by one are read back by the other (O_DIRECT on the kernel side, the kernel
 * disconnected between, so no page cache is involved), Identify and Discovery agree field by field.
 */
@Tag("rdma-nvmet")
class KernelCrossCheckNvmetTest {
    private static final int MIB = 1 << 20;

    private static byte[] pattern(int seed, int bytes) {
        byte[] b = new byte[bytes];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void javaWritesTheKernelReadsBack() throws IOException {
        byte[] data = pattern(1, 2 * MIB);
        try (NvmfController c = NvmfController.connect(NvmetRig.options());
             IoBuffer buf = c.allocateBuffer(data.length)) {
            buf.segment().copyFrom(MemorySegment.ofArray(data));
            c.write(1, 4 * MIB / 512, data.length / 512, buf, 0);     // LBA 8192 = byte 4 MiB
        }
        Path dev = NvmetRig.kernelConnect();
        Path back = Files.createTempFile("nvmf-back", ".bin");
        try {
            Commands.run("dd", "if=" + dev, "of=" + back, "bs=1M", "skip=4", "count=2", "iflag=direct", "status=none");
        } finally {
            NvmetRig.kernelDisconnect();
        }
        assertArrayEquals(data, NvmetRig.readFile(back), "what the kernel read from " + dev);
    }

    @Test
    void theKernelWritesJavaReadsBack() throws IOException {
        byte[] data = pattern(2, MIB);
        Path file = Files.createTempFile("nvmf-pattern", ".bin");
        Files.write(file, data);
        Path dev = NvmetRig.kernelConnect();
        try {
            Commands.run("dd", "if=" + file, "of=" + dev, "bs=1M", "seek=8", "oflag=direct", "conv=notrunc",
                    "status=none");
        } finally {
            NvmetRig.kernelDisconnect();
        }
        try (NvmfController c = NvmfController.connect(NvmetRig.options());
             IoBuffer buf = c.allocateBuffer(data.length)) {
            c.read(1, 8 * MIB / 512, data.length / 512, buf, 0);
            assertArrayEquals(data, buf.segment().toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void identifyEqualsNvmeIdCtrlAndIdNs() {
        Path dev = NvmetRig.kernelConnect();
        String ctrl;
        String ns;
        try {
            ctrl = Commands.run("nvme", "id-ctrl", NvmetRig.controllerOf(dev), "-o", "json");
            ns = Commands.run("nvme", "id-ns", dev.toString(), "-o", "json");
        } finally {
            NvmetRig.kernelDisconnect();
        }
        try (NvmfController c = NvmfController.connect(NvmetRig.options())) {
            ControllerIdentity id = c.identity();
            assertEquals(Json.first(ctrl, "sn"), id.serial());
            assertEquals(Json.first(ctrl, "mn"), id.model());
            assertEquals(Json.first(ctrl, "fr"), id.firmware());
            assertEquals(Json.first(ctrl, "subnqn"), id.subsystemNqn());
            assertEquals(Json.number(ctrl, "vid"), id.vendorId());
            assertEquals(Json.number(ctrl, "ver"), id.version());
            assertEquals(Json.number(ctrl, "mdts"), id.mdts());
            assertEquals(Json.number(ctrl, "kas"), id.keepAliveGranularity());
            assertEquals(Json.number(ctrl, "maxcmd"), id.maxCommands());
            assertEquals(Json.number(ctrl, "nn"), id.namespaceCount());
            assertEquals(Json.number(ctrl, "sgls"), Integer.toUnsignedLong(id.sglSupport()));
            assertEquals(Json.number(ctrl, "ioccsz") * 16, id.ioCapsuleSize());
            assertEquals(Json.number(ctrl, "iorcsz") * 16, id.ioResponseSize());
            assertEquals(Json.number(ctrl, "icdoff"), id.inCapsuleOffset());
            assertEquals(Json.number(ctrl, "msdbd"), id.maxSglDescriptors());
            NamespaceIdentity n = c.namespace(1);
            assertEquals(Json.number(ns, "nsze"), n.size());
            assertEquals(Json.number(ns, "ncap"), n.capacity());
            assertEquals(Json.number(ns, "nuse"), n.utilization());
            assertEquals(Json.number(ns, "nlbaf") + 1, n.formatCount());
            assertEquals(Json.number(ns, "flbas") & 0xF, n.formatIndex());
            assertEquals(1L << Long.parseLong(Json.all(ns, "ds").get(n.formatIndex())), n.blockSize());
            assertEquals(Long.parseLong(Json.all(ns, "ms").get(n.formatIndex())), n.metadataSize());
        }
    }

    @Test
    void discoveryEqualsNvmeDiscover() {
        String json = Commands.run("nvme", "discover", "-t", "rdma", "-a", NvmetRig.address(), "-s",
                String.valueOf(NvmetRig.port()), "-q", NvmetRig.KERNEL_HOSTNQN, "-o", "json");
        List<DiscoveryEntry> ours = NvmfController.discover(NvmetRig.options());
        NvmetRig.assertSameLines(Json.all(json, "subnqn"), ours.stream().map(DiscoveryEntry::subsystemNqn).toList());
        NvmetRig.assertSameLines(Json.all(json, "traddr"), ours.stream().map(DiscoveryEntry::address).toList());
        NvmetRig.assertSameLines(Json.all(json, "trsvcid"), ours.stream().map(DiscoveryEntry::serviceId).toList());
        NvmetRig.assertSameLines(Json.all(json, "portid"),
                ours.stream().map(e -> String.valueOf(e.portId())).toList());
        NvmetRig.assertSameLines(Json.all(json, "trtype"), ours.stream().map(DiscoveryEntry::transportName).toList());
        NvmetRig.assertSameLines(Json.all(json, "subtype"),
                ours.stream().map(DiscoveryEntry::subsystemTypeName).toList());
    }
}
