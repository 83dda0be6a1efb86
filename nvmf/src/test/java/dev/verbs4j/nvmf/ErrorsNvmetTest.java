package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.nvmf.types.ConnectRejectedException;
import dev.verbs4j.nvmf.types.InvalidNamespaceException;
import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.LbaOutOfRangeException;
import dev.verbs4j.nvmf.types.NvmeStatus;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.rig.Commands;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.function.Executable;

/** Bad input and failures against the rig's target: named exceptions, no hang, the controller usable after. */
@Tag("rdma-nvmet")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ErrorsNvmetTest {

    @Test
    @Order(1)
    void outOfRangeLbaIsRefusedBeforeSendingAndUnknownNamespaceIsNamed() {
        try (NvmfController c = NvmfController.connect(NvmetRig.options());
             IoBuffer buf = c.allocateBuffer(512 * 512);
             IoBuffer check = c.allocateBuffer(512 * 512)) {
            long size = c.namespace(1).size();
            long deviceErrors = endOfDeviceMessages();
            c.writeZeroes(1, size - 256, 256);
            buf.segment().fill((byte) 0x5A);
            // wholly past the end, and across it: one command, and a transfer split at MDTS whose first
            // commands alone would fit
            assertRefused(size, 8, () -> c.read(1, size, 8, buf, 0));
            assertRefused(size - 4, 8, () -> c.write(1, size - 4, 8, buf, 0));
            assertRefused(size - 256, 512, () -> c.write(1, size - 256, 512, buf, 0));
            assertRefused(size - 256, 512, () -> c.read(1, size - 256, 512, buf, 0));
            assertRefused(size - 8, 16, () -> c.writeZeroes(1, size - 8, 16));
            assertRefused(size + 1000, 1, () -> c.submitRead(0, 1, size + 1000, 1, buf, 0, (tag, e) -> fail("sent"), 0));
            assertRefused(size - 1, 2, () -> c.readAsync(1, size - 1, 2, buf, 0));
            assertRefused(Long.MAX_VALUE, 8, () -> c.read(1, Long.MAX_VALUE, 8, buf, 0));
            // nothing reached the target: the blocks before the end are still zero, and its block device
            // saw no access past its end
            c.read(1, size - 256, 256, check, 0);
            assertEquals(-1, check.segment().asSlice(0, 256 * 512).mismatch(MemorySegment.ofArray(new byte[256 * 512])),
                    "a refused write reached the namespace");
            assertEquals(deviceErrors, endOfDeviceMessages(), "the target's device saw an access past its end");
            assertEquals(0, c.poll(), "a refused submission completed");
            assertThrows(InvalidNamespaceException.class, () -> c.read(7, 0, 1, buf, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> c.read(1, 0, 1024, buf, 0));
            c.read(1, size - 8, 8, buf, 0);                // the last blocks, and the controller still works
            assertNull(c.failure());
        }
    }

    private static void assertRefused(long startBlock, long blocks, Executable io) {
        LbaOutOfRangeException e = assertThrows(LbaOutOfRangeException.class, io);
        assertEquals(NvmeStatus.LBA_OUT_OF_RANGE, e.status());
        assertTrue(e.doNotRetry(), e::toString);
        assertTrue(e.getMessage().contains("(count " + blocks + ")") && e.getMessage().contains(
                startBlock + (startBlock > Long.MAX_VALUE - blocks ? "" : ".." + (startBlock + blocks - 1))), e::getMessage);
        assertTrue(e.getMessage().contains("namespace 1, which has "), e::getMessage);
        assertTrue(e.getMessage().contains("not sent"), e::getMessage);
    }

    /** The kernel's reports of a bio past the end of a block device (the target's namespace is one). */
    private static long endOfDeviceMessages() {
        return Commands.sh("dmesg").lines().filter(l -> l.contains("beyond end of device")).count();
    }

    @Test
    @Order(2)
    void unknownSubsystemIsRefusedAtConnect() {
        ConnectRejectedException e = assertThrows(ConnectRejectedException.class,
                () -> NvmfController.connect(NvmetRig.options().withSubsystemNqn("nqn.2026-11.dev.verbs4j:nobody")));
        assertTrue(e.unknownSubsystem(), e::getMessage);
        assertTrue(e.doNotRetry());
    }

    @Test
    @Order(3)
    void aPortWithoutTargetFailsTheConnectionInsteadOfHanging() {
        NvmfConnectOptions o = NvmfConnectOptions.rdma(NvmetRig.address(), 4421, NvmetRig.nqn())
                .withTimeout(Duration.ofSeconds(10));
        NvmfTransportException e = assertThrows(NvmfTransportException.class, () -> NvmfController.connect(o));
        assertTrue(e.getMessage().contains("4421"), e::getMessage);
    }

    @Test
    @Order(4)
    void asynchronousReadsFillTheQueueAndComplete() throws Exception {
        try (NvmfController c = NvmfController.connect(NvmetRig.options().withQueueSize(32));
             IoBuffer w = c.allocateBuffer(64 * 4096);
             IoBuffer r = c.allocateBuffer(64 * 4096)) {
            for (int i = 0; i < 64 * 4096; i++) {
                w.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + i / 4096));
            }
            c.write(1, 0, 64 * 8, w, 0);
            int depth = c.ioQueueDepth();
            assertEquals(31, depth);
            AtomicInteger done = new AtomicInteger();
            AtomicReference<NvmfException> error = new AtomicReference<>();
            IoCallback cb = (tag, err) -> {
                if (err != null) {
                    error.set(err);
                }
                done.incrementAndGet();
            };
            for (int i = 0; i < depth; i++) {
                assertTrue(c.submitRead(0, 1, i * 8L, 8, r, i * 4096L, cb, i));
            }
            assertTrue(!c.submitRead(0, 1, 0, 8, r, 0, cb, -1), "a full queue takes no more");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (done.get() < depth && System.nanoTime() < deadline) {
                c.poll();
            }
            assertEquals(depth, done.get());
            assertNull(error.get());
            assertArrayEquals(w.segment().asSlice(0, depth * 4096L).toArray(ValueLayout.JAVA_BYTE),
                    r.segment().asSlice(0, depth * 4096L).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    @Order(5)
    void removingTheTargetPortMidIoFailsWithinTheKeepAlivePeriod() throws Exception {
        String link = "/sys/kernel/config/nvmet/ports/1/subsystems/" + NvmetRig.nqn();
        try (NvmfController c = NvmfController.connect(NvmetRig.options().withKeepAlive(Duration.ofSeconds(5))
                .withControllerLossTimeout(Duration.ZERO)
                .withProgressThread(true));
             IoBuffer buf = c.allocateBuffer(4096)) {
            c.read(1, 0, 8, buf, 0);
            CompletableFuture<Void> io = CompletableFuture.runAsync(() -> {
                while (true) {
                    c.read(1, 0, 8, buf, 0);
                }
            });
            Commands.run("rm", link);
            ExecutionException e = assertThrows(ExecutionException.class, () -> io.get(30, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof NvmfTransportException, e::toString);
            assertTrue(c.failure() != null);
            assertThrows(NvmfTransportException.class, () -> c.read(1, 0, 8, buf, 0));
        } finally {
            Commands.sh("[[ -e '" + link + "' ]] || ln -s /sys/kernel/config/nvmet/subsystems/" + NvmetRig.nqn()
                    + " /sys/kernel/config/nvmet/ports/1/subsystems/");
        }
        try (NvmfController again = NvmfController.connect(NvmetRig.options())) {
            assertEquals(NvmetRig.nqn(), again.identity().subsystemNqn());
        }
    }
}
