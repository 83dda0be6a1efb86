package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Queue pairs between two network namespaces, from one JVM: rxea is opened on a thread that joined
 * nsa, rxeb on one that joined nsb ({@link NetworkNamespace}); each rxe has its UDP socket in its
 * own namespace, so every frame crosses the veth pair n1 → n0 and back.
 * <p>
 * Needs the rig's two-netns or two-netns-exclusive topology (a 7.x kernel):
 * <pre>ci/rig run --topology two-netns mvn -B -o -ntp -P rig -pl verbs-java surefire:test -Dtest.groups=rdma-two-netns -Dtest.excludedGroups=none</pre>
 */
@Tag("rdma-two-netns")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class QpTwoNetnsRigTest {
    private NetnsSide a;
    private NetnsSide b;

    @BeforeEach
    void open() throws Exception {
        a = NetnsSide.open(0);
        b = NetnsSide.open(1);
    }

    @AfterEach
    void close() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    static byte[] pattern(int length, int seed) {
        byte[] p = new byte[length];
        for (int i = 0; i < length; i++) {
            p[i] = (byte) (seed + i * 31 + (i >>> 8));
        }
        return p;
    }

    static byte[] bytes(MemorySegment s, long offset, int length) {
        return s.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void eachThreadIsInItsNamespaceAndTheDevicesAreDistinct() {
        assertNotEquals(a.ns.identity(), b.ns.identity());
        assertNotEquals(NetworkNamespace.currentThreadNamespace(), a.ns.identity(), "the test thread stayed put");
        assertFalse(java.util.Arrays.equals(a.gid.gid(), b.gid.gid()), "two devices, two GIDs");
        System.out.println("nsa " + a.ns.identity() + " " + a.ctx.name() + " " + a.gid.formatted() + "; nsb "
                + b.ns.identity() + " " + b.ctx.name() + " " + b.gid.formatted());
    }

    /** RC send and RDMA write, 64 KiB each way, byte-exact; the frames are on the veth. */
    @Test
    void rcCarriesBytesBetweenTheNamespacesAcrossTheVeth() throws Exception {
        try (WorkCompletions wc = new WorkCompletions(1)) {
            QueuePair qa = a.createQueuePair(QpType.RC, a.cq);
            QueuePair qb = b.createQueuePair(QpType.RC, b.cq);
            a.connect(qa, 0x100, b, qb.number(), 0x200);
            b.connect(qb, 0x200, a, qa.number(), 0x100);
            long[] before0 = a.vethPackets();
            long[] before1 = b.vethPackets();

            int half = NetnsSide.BUFFER_BYTES / 2;
            byte[] toA = pattern(half, 3);
            MemorySegment.copy(toA, 0, b.buf, ValueLayout.JAVA_BYTE, 0, half);
            PreparedReceive recv = a.track(qa.prepareReceive(1, 1));
            recv.wrId(7).sge(0, 0, a.mr, 0, half).post();
            PreparedSend send = b.track(qb.prepareSend(1, 1));
            send.wrId(8).sge(0, 0, b.mr, 0, half).flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
            QpLoopback.awaitSuccess(b.cq, wc, "the send nsb -> nsa");
            QpLoopback.awaitSuccess(a.cq, wc, "the receive in nsa");
            assertEquals(half, wc.byteLength(0));
            assertArrayEquals(toA, bytes(a.buf, 0, half), "nsa received nsb's bytes");

            byte[] toB = pattern(half, 11);
            MemorySegment.copy(toB, 0, a.buf, ValueLayout.JAVA_BYTE, half, half);
            PreparedSend write = a.track(qa.prepareSend(1, 1));
            write.opcode(0, SendOpcode.RDMA_WRITE).remote(0, b.mr.address() + half, b.mr.rkey())
                    .sge(0, 0, a.mr, half, half).flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(9).post();
            QpLoopback.awaitSuccess(a.cq, wc, "the RDMA write nsa -> nsb");
            assertArrayEquals(toB, bytes(b.buf, half, half), "nsa's write landed in nsb's buffer");

            long[] after0 = a.vethPackets();
            long[] after1 = b.vethPackets();
            long frames = 2L * half / 1024; // MTU 1024: at least one frame per KiB each way
            System.out.printf("RC: n1 tx +%d rx +%d, n0 rx +%d tx +%d%n", after1[1] - before1[1],
                    after1[0] - before1[0], after0[0] - before0[0], after0[1] - before0[1]);
            assertTrue(after1[1] - before1[1] >= half / 1024, "n1 (nsb) sent the send's frames");
            assertTrue(after0[1] - before0[1] >= half / 1024, "n0 (nsa) sent the write's frames");
            assertTrue(after0[0] - before0[0] + after1[0] - before1[0] >= frames, "both ends received them");
        }
    }

    /** UD datagrams both ways, addressed by an AH to the other namespace's GID. */
    @Test
    void udDatagramsCrossTheNamespaces() throws Exception {
        try (WorkCompletions wc = new WorkCompletions(1)) {
            QueuePair qa = a.createQueuePair(QpType.UD, a.cq);
            QueuePair qb = b.createQueuePair(QpType.UD, b.cq);
            a.datagram(qa, 1);
            b.datagram(qb, 2);
            long[] before0 = a.vethPackets();
            AddressHandle toA = b.track(b.pd.createAddressHandle(AddressVector.roce(a.gid.gid(), b.gid)));
            AddressHandle toB = a.track(a.pd.createAddressHandle(AddressVector.roce(b.gid.gid(), a.gid)));
            int n = 20;
            for (int i = 0; i < n; i++) {
                byte[] p = pattern(1000, i);
                datagram(b, qb, toA, a, qa, p, wc);
                byte[] reply = pattern(1000, 100 + i);
                datagram(a, qa, toB, b, qb, reply, wc);
            }
            long[] after0 = a.vethPackets();
            System.out.printf("UD: n0 rx +%d tx +%d%n", after0[0] - before0[0], after0[1] - before0[1]);
            assertTrue(after0[0] - before0[0] >= n && after0[1] - before0[1] >= n, "datagrams crossed n0 both ways");
        }
    }

    private static void datagram(NetnsSide from, QueuePair qFrom, AddressHandle ah, NetnsSide to, QueuePair qTo,
            byte[] payload, WorkCompletions wc) {
        int grh = AddressHandle.GRH_BYTES;
        MemorySegment.copy(payload, 0, from.buf, ValueLayout.JAVA_BYTE, 0, payload.length);
        try (PreparedReceive recv = qTo.prepareReceive(1, 1); PreparedSend send = qFrom.prepareSend(1, 1)) {
            recv.wrId(1).sge(0, 0, to.mr, 0, grh + payload.length).post();
            send.ud(0, ah, qTo.number(), NetnsSide.QKEY).sge(0, 0, from.mr, 0, payload.length)
                    .flags(0, SendFlag.mask(SendFlag.SIGNALED)).wrId(2).post();
            QpLoopback.awaitSuccess(from.cq, wc, "the UD send from " + from.ns.name());
            QpLoopback.awaitSuccess(to.cq, wc, "the UD receive in " + to.ns.name());
            assertEquals(grh + payload.length, wc.byteLength(0));
            assertEquals(qFrom.number(), wc.sourceQp(0), "the datagram names its sender's QP");
            assertArrayEquals(payload, bytes(to.buf, grh, payload.length));
        }
    }

    /**
     * Each device numbers its QPs, CQs and keys on its own: the two namespaces, creating the same
     * objects, get overlapping numbers, and a QP connected to the peer QP of the same number still
     * gets the peer's bytes, not its own namespace's.
     */
    @Test
    void identifiersOverlapBetweenTheDevicesAndTrafficStillReachesTheRightPeer() throws Exception {
        int count = 24;
        Map<Integer, QueuePair> qpsA = new HashMap<>();
        Map<Integer, QueuePair> qpsB = new HashMap<>();
        Set<Integer> keysA = new HashSet<>();
        Set<Integer> keysB = new HashSet<>();
        List<CompletionQueue> cqsA = new ArrayList<>();
        List<CompletionQueue> cqsB = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            CompletionQueue ca = a.track(a.ctx.createCompletionQueue(8));
            CompletionQueue cb = b.track(b.ctx.createCompletionQueue(8));
            cqsA.add(ca);
            cqsB.add(cb);
            QueuePair qa = a.createQueuePair(QpType.RC, ca);
            QueuePair qb = b.createQueuePair(QpType.RC, cb);
            qpsA.put(qa.number(), qa);
            qpsB.put(qb.number(), qb);
            MemoryRegion ma = a.track(a.pd.register(a.buf.asSlice(i * 64L, 64), Access.ALL_REMOTE));
            MemoryRegion mb = b.track(b.pd.register(b.buf.asSlice(i * 64L, 64), Access.ALL_REMOTE));
            keysA.add(ma.rkey() >>> 8); // rxe: MR index << 8 | an 8-bit key chosen at random per registration
            keysB.add(mb.rkey() >>> 8);
        }
        Set<Integer> sameQpns = new HashSet<>(qpsA.keySet());
        sameQpns.retainAll(qpsB.keySet());
        Set<Integer> sameKeys = new HashSet<>(keysA);
        sameKeys.retainAll(keysB);
        System.out.println(count + " QPs, CQs and MRs each; QP numbers in both namespaces: " + sameQpns.size()
                + ", MR key indexes (rkey >>> 8) in both: " + sameKeys.size());
        assertFalse(sameQpns.isEmpty(), "QP numbers overlap: nsa " + qpsA.keySet() + ", nsb " + qpsB.keySet());
        assertFalse(sameKeys.isEmpty(), "MR key indexes overlap: nsa " + keysA + ", nsb " + keysB);

        int qpn = sameQpns.stream().min(Integer::compare).orElseThrow();
        QueuePair qa = qpsA.get(qpn);
        QueuePair qb = qpsB.get(qpn);
        a.connect(qa, 5, b, qpn, 6); // nsa's QP n talks to nsb's QP n
        b.connect(qb, 6, a, qpn, 5);
        CompletionQueue ca = qa.sendCompletionQueue();
        CompletionQueue cb = qb.sendCompletionQueue();
        try (WorkCompletions wc = new WorkCompletions(1);
             PreparedReceive ra = qa.prepareReceive(1, 1); PreparedReceive rb = qb.prepareReceive(1, 1);
             PreparedSend sa = qa.prepareSend(1, 1); PreparedSend sb = qb.prepareSend(1, 1)) {
            byte[] fromA = pattern(512, 0x5a);
            byte[] fromB = pattern(512, 0xb5);
            int at = NetnsSide.BUFFER_BYTES - 2048;
            MemorySegment.copy(fromA, 0, a.buf, ValueLayout.JAVA_BYTE, at, 512);
            MemorySegment.copy(fromB, 0, b.buf, ValueLayout.JAVA_BYTE, at, 512);
            ra.wrId(1).sge(0, 0, a.mr, at + 1024, 512).post();
            rb.wrId(1).sge(0, 0, b.mr, at + 1024, 512).post();
            sa.wrId(2).sge(0, 0, a.mr, at, 512).flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
            sb.wrId(2).sge(0, 0, b.mr, at, 512).flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
            for (int i = 0; i < 2; i++) { // one send and one receive completion on each CQ, in either order
                QpLoopback.awaitSuccess(ca, wc, "nsa's QP " + qpn);
                QpLoopback.awaitSuccess(cb, wc, "nsb's QP " + qpn);
            }
            assertArrayEquals(fromB, bytes(a.buf, at + 1024, 512), "nsa's QP " + qpn + " got nsb's bytes");
            assertArrayEquals(fromA, bytes(b.buf, at + 1024, 512), "nsb's QP " + qpn + " got nsa's bytes");
        }
    }
}
