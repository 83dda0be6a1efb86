package dev.verbs4j.verbs;

import dev.verbs4j.rig.ResourceShow;
import dev.verbs4j.rig.RigEnvironment;
import dev.verbs4j.unix.Errno;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** RC queue pairs on the rig's device, connected to each other, moving real bytes. */
@Tag("rdma")
class QpRcRigTest {

    private static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed + i * 7);
        }
        return b;
    }

    private static byte[] bytes(MemorySegment s, long offset, int length) {
        return s.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void connectsThroughTheStateMachineAndReportsAttributes() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small())) {
            QpAttributes qa = l.a.query();
            assertEquals(QpState.RTS, qa.state());
            assertEquals(PathMtu.MTU_1024, qa.pathMtu());
            assertEquals(l.b.number(), qa.destQpNumber());
            assertEquals(QpLoopback.PSN_A, qa.sqPsn());
            assertEquals(QpLoopback.PSN_B, qa.rqPsn());
            assertTrue(qa.allows(Access.REMOTE_READ) && qa.allows(Access.REMOTE_WRITE), "access " + qa.remoteAccess());
            assertTrue(qa.remote().isGlobal(), "RoCE path has a GRH");
            assertArrayEquals(l.gid.gid(), qa.remote().destGid());
            assertTrue(l.a.capabilities().maxSendWorkRequests() >= 16);
            assertEquals(QpState.RTS, l.b.state());

            QpStateException again = assertThrows(QpStateException.class,
                    () -> l.a.toRtr(RtrAttributes.builder().build()));
            assertEquals(QpState.RTS, again.current());
            assertEquals(QpState.RTR, again.requested());
        }
    }

    @Test
    void sendAndReceiveWithAndWithoutImmediate() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            byte[] payload = "hello over rxe".getBytes(StandardCharsets.US_ASCII);
            MemorySegment.copy(payload, 0, l.bufA, ValueLayout.JAVA_BYTE, 0, payload.length);
            PreparedReceive recv = l.track(l.b.prepareReceive(1, 1));
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            recv.wrId(100).sge(0, 0, l.mrB, 0, 256);
            send.wrId(1).sge(0, 0, l.mrA, 0, payload.length).flags(0, SendFlag.mask(SendFlag.SIGNALED));

            recv.post();
            send.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the send");
            assertEquals(1, wc.wrId(0));
            assertEquals(WcOpcode.SEND, wc.opcodeEnum(0));
            QpLoopback.awaitSuccess(l.cqB, wc, "the receive");
            assertEquals(100, wc.wrId(0));
            assertEquals(payload.length, wc.byteLength(0));
            assertFalse(wc.hasImmediate(0));
            assertEquals(l.b.number(), wc.qpNumber(0));
            assertArrayEquals(payload, bytes(l.bufB, 0, payload.length));

            recv.wrId(101).post();
            send.opcode(0, SendOpcode.SEND_WITH_IMM).immediate(0xCAFEF00D).wrId(2).post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the send with immediate");
            QpLoopback.awaitSuccess(l.cqB, wc, "the receive with immediate");
            assertEquals(101, wc.wrId(0));
            assertTrue(wc.hasImmediate(0));
            assertEquals(0xCAFEF00D, wc.immediateData(0));
        }
    }

    @Test
    void inlineSendCarriesTheBytesAndIsCheckedAgainstMaxInline() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small().withInlineData(64));
             WorkCompletions wc = new WorkCompletions(1)) {
            int maxInline = l.a.capabilities().maxInlineData();
            assertTrue(maxInline >= 64, "asked for 64 inline bytes, got " + maxInline);
            byte[] payload = pattern(48, 3);
            MemorySegment.copy(payload, 0, l.bufA, ValueLayout.JAVA_BYTE, 0, payload.length);
            PreparedReceive recv = l.track(l.b.prepareReceive(1, 1));
            recv.wrId(7).sge(0, 0, l.mrB, 0, 256).post();
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            // inline needs no registered region: any live native segment will do
            send.sge(0, 0, l.bufA.asSlice(0, payload.length))
                    .flags(0, SendFlag.mask(SendFlag.SIGNALED, SendFlag.INLINE)).wrId(8);
            send.post();
            l.bufA.asSlice(0, payload.length).fill((byte) 0); // the copy was taken at post time
            QpLoopback.awaitSuccess(l.cqA, wc, "the inline send");
            QpLoopback.awaitSuccess(l.cqB, wc, "the inline receive");
            assertArrayEquals(payload, bytes(l.bufB, 0, payload.length));

            IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                    () -> send.sge(0, 0, l.bufA.asSlice(0, maxInline + 1)));
            assertTrue(tooLong.getMessage().contains("max_inline_data"), tooLong.getMessage());
        }
    }

    @Test
    void rdmaWriteAndReadAreByteExact() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            byte[] written = pattern(1000, 11);
            MemorySegment.copy(written, 0, l.bufA, ValueLayout.JAVA_BYTE, 0, written.length);
            PreparedSend write = l.track(l.a.prepareSend(1, 1));
            write.opcode(0, SendOpcode.RDMA_WRITE).sge(0, 0, l.mrA, 0, written.length)
                    .remote(l.mrB.address() + 24, l.mrB.rkey()).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(5);
            write.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the RDMA write");
            assertEquals(WcOpcode.RDMA_WRITE, wc.opcodeEnum(0));
            assertArrayEquals(written, bytes(l.bufB, 24, written.length));
            assertEquals(0, l.bufB.get(ValueLayout.JAVA_BYTE, 23), "nothing before the target");
            assertEquals(0, l.bufB.get(ValueLayout.JAVA_BYTE, 24 + written.length), "nothing after it");

            byte[] remote = pattern(700, 99);
            MemorySegment.copy(remote, 0, l.bufB, ValueLayout.JAVA_BYTE, 2048, remote.length);
            PreparedSend read = l.track(l.a.prepareSend(1, 1));
            read.opcode(0, SendOpcode.RDMA_READ).sge(0, 0, l.mrA, 2048, remote.length)
                    .remote(l.mrB.address() + 2048, l.mrB.rkey()).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(6);
            read.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the RDMA read");
            assertEquals(WcOpcode.RDMA_READ, wc.opcodeEnum(0));
            assertEquals(remote.length, wc.byteLength(0));
            assertArrayEquals(remote, bytes(l.bufA, 2048, remote.length));
        }
    }

    @Test
    void rdmaWriteWithImmediateConsumesAReceive() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            byte[] written = pattern(64, 5);
            MemorySegment.copy(written, 0, l.bufA, ValueLayout.JAVA_BYTE, 0, written.length);
            l.track(l.b.prepareReceive(1, 0)).wrId(0, 55).post();
            PreparedSend w = l.track(l.a.prepareSend(1, 1));
            w.opcode(0, SendOpcode.RDMA_WRITE_WITH_IMM).immediate(0, 1234).sge(0, 0, l.mrA, 0, 64)
                    .remote(0, l.mrB.address() + 512, l.mrB.rkey()).flags(0, SendFlag.mask(SendFlag.SIGNALED));
            w.post();
            QpLoopback.awaitSuccess(l.cqA, wc, "the write with immediate");
            QpLoopback.awaitSuccess(l.cqB, wc, "the receive of the immediate");
            assertEquals(55, wc.wrId(0));
            assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, wc.opcodeEnum(0));
            assertEquals(1234, wc.immediateData(0));
            assertArrayEquals(written, bytes(l.bufB, 512, 64));
        }
    }

    @Test
    void preparedRequestsArePostedManyTimesWithChangingLengthAndId() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            PreparedReceive recv = l.track(l.b.prepareReceive(1, 1));
            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            recv.sge(0, 0, l.mrB, 0, 1024);
            send.sge(0, 0, l.mrA, 0, 0).flags(0, SendFlag.mask(SendFlag.SIGNALED));
            for (int i = 1; i <= 8; i++) {
                int length = i * 37;
                byte[] payload = pattern(length, i);
                MemorySegment.copy(payload, 0, l.bufA, ValueLayout.JAVA_BYTE, 0, length);
                recv.wrId(1000 + i).post();
                send.length(length).wrId(i).post();
                QpLoopback.awaitSuccess(l.cqA, wc, "send " + i);
                assertEquals(i, wc.wrId(0));
                QpLoopback.awaitSuccess(l.cqB, wc, "receive " + i);
                assertEquals(1000 + i, wc.wrId(0));
                assertEquals(length, wc.byteLength(0));
                assertArrayEquals(payload, bytes(l.bufB, 0, length));
            }
        }
    }

    @Test
    void chainOfSendsPostsInOrder() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            PreparedReceive recv = l.track(l.b.prepareReceive(3, 1));
            PreparedSend send = l.track(l.a.prepareSend(3, 1));
            for (int i = 0; i < 3; i++) {
                l.bufA.set(ValueLayout.JAVA_BYTE, i * 16, (byte) (0x40 + i));
                recv.wrId(i, 10 + i).sge(i, 0, l.mrB, i * 16, 16);
                send.wrId(i, 20 + i).sge(i, 0, l.mrA, i * 16, 1).flags(i, SendFlag.mask(SendFlag.SIGNALED));
            }
            recv.post();
            send.post(2); // only the first two
            for (int i = 0; i < 2; i++) {
                QpLoopback.awaitSuccess(l.cqB, wc, "receive " + i);
                assertEquals(10 + i, wc.wrId(0));
                assertEquals(0x40 + i, l.bufB.get(ValueLayout.JAVA_BYTE, i * 16));
                QpLoopback.awaitSuccess(l.cqA, wc, "send " + i);
                assertEquals(20 + i, wc.wrId(0));
            }
            assertEquals(0, l.cqB.poll(wc), "the third send was not posted");
        }
    }

    @Test
    void pollTakesNoMoreThanAskedAndLeavesTheRest() throws InterruptedException {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(4)) {
            PreparedSend send = l.track(l.a.prepareSend(3, 1));
            for (int i = 0; i < 3; i++) {
                send.wrId(i, 30 + i).opcode(i, SendOpcode.RDMA_WRITE).sge(i, 0, l.mrA, i * 8, 8)
                        .remote(i, l.mrB.address() + i * 8, l.mrB.rkey()).flags(i, SendFlag.mask(SendFlag.SIGNALED));
            }
            send.post();
            Thread.sleep(200); // all three complete on the CQ before the first poll
            for (int i = 0; i < 3; i++) {
                assertEquals(1, l.cqA.poll(wc, 1), "poll " + i + " with max 1");
                assertEquals(30 + i, wc.wrId(0), "the others stayed on the CQ, in order");
                assertTrue(wc.isSuccess(0));
            }
            assertEquals(0, l.cqA.poll(wc, 4));
            assertThrows(IllegalArgumentException.class, () -> l.cqA.poll(wc, 0));
            assertThrows(IllegalArgumentException.class, () -> l.cqA.poll(wc, 5));
        }
    }

    @Test
    void badRkeyCompletesWithRemoteAccessError() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            PreparedSend write = l.track(l.a.prepareSend(1, 1));
            write.opcode(0, SendOpcode.RDMA_WRITE).sge(0, 0, l.mrA, 0, 16)
                    .remote(l.mrB.address(), l.mrB.rkey() ^ 0x5a5a00).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(9);
            write.post();
            QpLoopback.awaitOne(l.cqA, wc, "the write with a bad rkey");
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.statusEnum(0));
            assertEquals(9, wc.wrId(0));
            assertEquals(QpState.ERR, l.a.state(), "a remote access error breaks the connection");
        }
    }

    @Test
    void movingToErrorFlushesPostedReceives() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            PreparedReceive recv = l.track(l.b.prepareReceive(2, 1));
            recv.wrId(0, 31).sge(0, 0, l.mrB, 0, 64).wrId(1, 32).sge(1, 0, l.mrB, 64, 64);
            recv.post();
            l.b.toError();
            assertEquals(QpState.ERR, l.b.state());
            for (int i = 0; i < 2; i++) {
                QpLoopback.awaitOne(l.cqB, wc, "flushed receive " + i);
                assertEquals(WcStatus.WR_FLUSH_ERR, wc.statusEnum(0));
                assertEquals(31 + i, wc.wrId(0));
            }
            l.b.toReset();
            assertEquals(QpState.RESET, l.b.state());
        }
    }

    @Test
    void completionChannelWakesOnACompletion() {
        try (QpLoopback l = QpLoopback.connected(QpType.RC, QpCapabilities.small(), true);
             WorkCompletions wc = new WorkCompletions(1)) {
            PreparedReceive recv = l.track(l.b.prepareReceive(1, 1));
            recv.wrId(77).sge(0, 0, l.mrB, 0, 64).post();
            l.cqB.requestNotification(false);
            assertEquals(0, l.cqB.poll(wc));
            assertEquals(null, l.channel.await(java.time.Duration.ofMillis(100)), "nothing happened yet");

            PreparedSend send = l.track(l.a.prepareSend(1, 1));
            send.sge(0, 0, l.mrA, 0, 8).post(); // unsignaled: only cqB gets a completion
            CompletionQueue woken = l.channel.await(QpLoopback.TIMEOUT);
            assertSame(l.cqB, woken, "the event names the receive CQ");
            QpLoopback.awaitSuccess(l.cqB, wc, "the receive after the event");
            assertEquals(77, wc.wrId(0));
            l.cqB.acknowledgeEvents();
        }
    }

    @Test
    void postingFailuresNameTheBadRequest() {
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small());
             WorkCompletions wc = new WorkCompletions(1)) {
            PreparedSend chain = l.track(l.a.prepareSend(3, 1));
            for (int i = 0; i < 3; i++) {
                chain.wrId(i, 500 + i).opcode(i, SendOpcode.RDMA_WRITE).sge(i, 0, l.mrA, 0, 8)
                        .remote(i, l.mrB.address(), l.mrB.rkey()).flags(i, SendFlag.mask(SendFlag.SIGNALED));
            }
            // an atomic on an address that is not 8-byte aligned: the provider rejects it at post time
            chain.opcode(1, SendOpcode.ATOMIC_FETCH_AND_ADD).remote(1, l.mrB.address() + 1, l.mrB.rkey());
            WorkRequestException bad = assertThrows(WorkRequestException.class, chain::post);
            assertEquals(1, bad.index(), bad.getMessage());
            assertEquals(3, bad.chainLength());
            assertEquals(Errno.EINVAL, bad.errno(), bad.getMessage());
            assertTrue(bad.getMessage().contains("wr_id 501"), bad.getMessage());
            // the request before the bad one was posted and completes
            QpLoopback.awaitSuccess(l.cqA, wc, "the request before the bad one");
            assertEquals(500, wc.wrId(0));
            assertEquals(0, l.cqA.poll(wc), "nothing after the bad request was posted");
        }
    }

    @Test
    void closedRequestsAndBatchesRefuseUseWhileTheirQueuesStayOpen() {
        try (QpLoopback l = QpLoopback.resourcesOnly()) {
            QueuePair qp = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA, l.cqB).build()));
            PreparedSend send = qp.prepareSend(1, 1);
            PreparedReceive recv = qp.prepareReceive(1, 1);
            WorkCompletions wc = new WorkCompletions(4);
            send.close();
            send.close(); // idempotent, as the others
            recv.close();
            recv.close();
            wc.close();
            wc.close();
            assertEquals("this PreparedSend is closed", assertThrows(IllegalStateException.class, send::post).getMessage());
            assertEquals("this PreparedReceive is closed", assertThrows(IllegalStateException.class, recv::post).getMessage());
            assertEquals("this WorkCompletions batch is closed",
                    assertThrows(IllegalStateException.class, () -> l.cqA.poll(wc)).getMessage());
            assertFalse(qp.isClosed());
            assertEquals(0, l.cqA.poll(l.track(new WorkCompletions(4))), "the CQ itself still polls");
        }
    }

    @Test
    void closedObjectsRefuseUseAndParentsRefuseToCloseFirst() {
        QpLoopback l = QpLoopback.resourcesOnly();
        try {
            QueuePair qp = l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA, l.cqB).build());
            PreparedSend send = qp.prepareSend(1, 1);
            PreparedReceive recv = qp.prepareReceive(1, 1);

            IllegalStateException pdBusy = assertThrows(IllegalStateException.class, l.pd::close);
            assertTrue(pdBusy.getMessage().contains("protection domain"), pdBusy.getMessage());
            IllegalStateException cqBusy = assertThrows(IllegalStateException.class, l.cqB::close);
            assertTrue(cqBusy.getMessage().contains("still open"), cqBusy.getMessage());
            assertFalse(l.cqB.isClosed());

            qp.close();
            qp.close(); // idempotent
            assertThrows(IllegalStateException.class, qp::query);
            assertThrows(IllegalStateException.class, qp::toError);
            assertThrows(IllegalStateException.class, send::post);
            assertThrows(IllegalStateException.class, recv::post);
            assertThrows(IllegalStateException.class, () -> qp.prepareSend(1, 1));
            send.close();
            recv.close();

            MemoryRegion mr = l.pd.register(l.bufA.asSlice(0, 64), java.util.Set.of(Access.LOCAL_WRITE));
            mr.close();
            QueuePair qp2 = l.track(l.pd.createQueuePair(QpInitAttributes.builder(QpType.RC, l.cqA).build()));
            PreparedSend s2 = l.track(qp2.prepareSend(1, 1));
            assertThrows(IllegalStateException.class, () -> s2.sge(0, 0, mr, 0, 8));
        } finally {
            l.close();
        }
        try (WorkCompletions wc = new WorkCompletions(1)) {
            assertThrows(IllegalStateException.class, () -> l.cqA.poll(wc));
            assertThrows(IllegalStateException.class, () -> l.pd.createQueuePair(
                    QpInitAttributes.builder(QpType.RC, l.cqA).build()));
        }
    }

    @Test
    void resourceCountsReturnToWhereTheyWere() {
        String device = RigEnvironment.current().device();
        Map<String, Integer> before = ResourceShow.counts(device);
        try (QpLoopback l = QpLoopback.rc(QpCapabilities.small())) {
            Map<String, Integer> during = ResourceShow.counts(device);
            assertEquals(before.get("qp") + 2, during.get("qp"), "two QPs: " + during);
            assertEquals(before.get("cq") + 2, during.get("cq"), "two CQs: " + during);
            assertEquals(before.get("mr") + 2, during.get("mr"), "two MRs: " + during);
        }
        assertEquals(before, ResourceShow.counts(device), "rdma resource show back to where it was");
    }
}
