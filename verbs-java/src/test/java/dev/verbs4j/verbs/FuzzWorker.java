package dev.verbs4j.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;

/**
 * One fuzzing thread: random steps over the public API, with valid and invalid arguments, on
 * the shared {@link FuzzPool} (which other threads close objects of at any time) and on its own
 * prepared work requests and completion batch. A step may throw only what the API promises for
 * misuse; {@link FuzzMain} counts those and reports anything else.
 */
final class FuzzWorker {
    private static final int[] ODD_INTS = {-1, 0, 1, 2, 3, 4, 16, 64, 4096, 1 << 20, Integer.MAX_VALUE, Integer.MIN_VALUE};
    private static final SendFlag[] FLAGS = SendFlag.values();
    private static final SendOpcode[] OPCODES = SendOpcode.values();

    private final Random rnd;
    private final FuzzPool pool;
    private final List<PreparedSend> sends = new ArrayList<>();
    private final List<PreparedReceive> receives = new ArrayList<>();
    private final WorkCompletions batch = new WorkCompletions(16);
    long errorCompletions;

    FuzzWorker(Random rnd, FuzzPool pool) {
        this.rnd = rnd;
        this.pool = pool;
    }

    /** One random step. */
    void step() {
        int r = rnd.nextInt(100);
        if (r < 3) {
            createCq();
        } else if (r < 7) {
            createQp();
        } else if (r < 9) {
            createSrq();
        } else if (r < 13) {
            registerMemory();
        } else if (r < 15) {
            createAddressHandle();
        } else if (r < 20) {
            closeSomething();
        } else if (r < 25) {
            prepare();
        } else if (r < 45) {
            fillSend();
        } else if (r < 55) {
            fillReceive();
        } else if (r < 70) {
            post();
        } else if (r < 88) {
            poll();
        } else if (r < 95) {
            modify();
        } else {
            oddCall();
        }
    }

    private int odd() {
        return rnd.nextInt(4) == 0 ? ODD_INTS[rnd.nextInt(ODD_INTS.length)] : 1 + rnd.nextInt(8);
    }

    private void createCq() {
        CompletionQueue cq = pool.ctx.createCompletionQueue(rnd.nextInt(5) == 0 ? odd() : 16 + rnd.nextInt(256));
        if (!pool.add(pool.cqs, cq)) {
            cq.close();
        }
    }

    private void createQp() {
        CompletionQueue cq = pool.pick(pool.cqs, rnd);
        if (cq == null) {
            return;
        }
        QpType type = QpType.values()[rnd.nextInt(QpType.values().length)];
        QpCapabilities caps = rnd.nextInt(6) == 0
                ? new QpCapabilities(Math.max(0, odd()), Math.max(0, odd()), Math.max(0, odd()), Math.max(0, odd()),
                        Math.max(0, odd()))
                : new QpCapabilities(1 + rnd.nextInt(32), 1 + rnd.nextInt(32), 1 + rnd.nextInt(3), 1 + rnd.nextInt(3),
                        rnd.nextBoolean() ? 0 : 64);
        CompletionQueue recvCq = pool.pick(pool.cqs, rnd);
        QpInitAttributes.Builder b = QpInitAttributes.builder(type, cq, recvCq != null ? recvCq : cq).capabilities(caps);
        SharedReceiveQueue srq = rnd.nextInt(3) == 0 ? pool.pick(pool.srqs, rnd) : null;
        if (srq != null) {
            b.sharedReceiveQueue(srq);
        }
        QueuePair qp = pool.pd.createQueuePair(b.build());
        if (!pool.add(pool.qps, qp)) {
            qp.close();
            return;
        }
        if (rnd.nextInt(4) != 0) {
            toRts(qp);
        }
    }

    /** Connects an RC/UC QP to itself, or readies a UD QP. */
    private void toRts(QueuePair qp) {
        if (qp.type() == QpType.UD) {
            qp.toInit(InitAttributes.datagram(QpLoopback.PORT, QpLoopback.QKEY));
            qp.toRtr(RtrAttributes.datagram());
        } else {
            qp.toInit(InitAttributes.connected(QpLoopback.PORT, qp.type() == QpType.RC
                    ? EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC)
                    : EnumSet.of(Access.REMOTE_WRITE)));
            qp.toRtr(RtrAttributes.builder().remote(AddressVector.roce(pool.gid.gid(), pool.gid))
                    .pathMtu(PathMtu.MTU_1024).destQpNumber(qp.number()).rqPsn(0x100).build());
        }
        qp.toRts(RtsAttributes.withSendPsn(0x100));
    }

    private void createSrq() {
        SharedReceiveQueue srq = pool.pd.createSharedReceiveQueue(rnd.nextInt(4) == 0 ? odd() : 1 + rnd.nextInt(64),
                rnd.nextInt(4) == 0 ? odd() : 1 + rnd.nextInt(2));
        if (!pool.add(pool.srqs, srq)) {
            srq.close();
        }
    }

    private void registerMemory() {
        Arena arena = pool.pick(pool.arenas, rnd);
        if (arena == null || rnd.nextInt(3) == 0) {
            arena = Arena.ofShared();
            if (!pool.add(pool.arenas, arena)) {
                arena.close();
                return;
            }
        }
        MemorySegment memory = arena.allocate(rnd.nextBoolean() ? 4096 : 64 << 10, 4096);
        MemoryRegion mr = pool.pd.register(memory, rnd.nextBoolean() ? Access.ALL_REMOTE : EnumSet.of(Access.LOCAL_WRITE));
        if (!pool.add(pool.mrs, mr)) {
            mr.close();
        }
    }

    private void createAddressHandle() {
        AddressHandle ah = pool.pd.createAddressHandle(AddressVector.roce(pool.gid.gid(), pool.gid));
        if (!pool.add(pool.ahs, ah)) {
            ah.close();
        }
    }

    private void closeSomething() {
        switch (rnd.nextInt(8)) {
            case 0 -> closeShared(pool.qps);
            case 1 -> closeShared(pool.cqs);
            case 2 -> closeShared(pool.mrs);
            case 3 -> closeShared(pool.srqs);
            case 4 -> closeShared(pool.ahs);
            case 5 -> closeArena();
            case 6 -> closeOwn(sends.isEmpty() ? null : sends.remove(rnd.nextInt(sends.size())));
            default -> closeOwn(receives.isEmpty() ? null : receives.remove(rnd.nextInt(receives.size())));
        }
        if (rnd.nextInt(20) == 0) {
            pool.pd.close(); // refused while anything is open in it
        }
    }

    private <T extends AutoCloseable> void closeShared(List<T> list) {
        T o = pool.take(list, rnd);
        if (o == null) {
            return;
        }
        try {
            o.close();
        } catch (IllegalStateException | VerbsException e) {
            pool.putBack(list, o); // still in use by a child: it stays open
            throw e;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void closeArena() {
        Arena a = pool.take(pool.arenas, rnd);
        if (a != null) {
            try {
                a.close(); // frees memory registered regions and prepared entries may still point at
            } catch (IllegalStateException acquired) {
                pool.putBack(pool.arenas, a); // a post holds it for its inline data right now
                throw acquired;
            }
        }
    }

    private static void closeOwn(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    private void prepare() {
        if (rnd.nextBoolean()) {
            QueuePair qp = pool.pick(pool.qps, rnd);
            if (qp != null && sends.size() < 4) {
                sends.add(qp.prepareSend(rnd.nextInt(4) == 0 ? odd() : 1 + rnd.nextInt(4),
                        rnd.nextInt(4) == 0 ? odd() : rnd.nextInt(3)));
            }
        } else if (receives.size() < 4) {
            int chain = rnd.nextInt(4) == 0 ? odd() : 1 + rnd.nextInt(4);
            int sges = rnd.nextInt(4) == 0 ? odd() : 1 + rnd.nextInt(2);
            SharedReceiveQueue srq = rnd.nextInt(3) == 0 ? pool.pick(pool.srqs, rnd) : null;
            QueuePair qp = pool.pick(pool.qps, rnd);
            if (srq != null) {
                receives.add(srq.prepareReceive(chain, sges));
            } else if (qp != null) {
                receives.add(qp.prepareReceive(chain, sges));
            }
        }
    }

    private void fillSend() {
        if (sends.isEmpty()) {
            return;
        }
        PreparedSend s = sends.get(rnd.nextInt(sends.size()));
        int wr = rnd.nextInt(10) == 0 ? odd() : rnd.nextInt(s.size());
        switch (rnd.nextInt(9)) {
            case 0, 1, 2 -> fillEntry(s, wr);
            case 3 -> s.flags(wr, flags());
            case 4 -> s.opcode(wr, OPCODES[rnd.nextInt(OPCODES.length)]);
            case 5 -> {
                MemoryRegion mr = pool.pick(pool.mrs, rnd);
                if (mr != null) {
                    s.remote(wr, mr.address() + rnd.nextInt(64) * 8L, mr.rkey());
                }
            }
            case 6 -> s.sgeCount(wr, rnd.nextInt(4) == 0 ? odd() : rnd.nextInt(3));
            case 7 -> s.length(wr, rnd.nextInt(2), rnd.nextInt(4) == 0 ? odd() : rnd.nextInt(128));
            default -> {
                AddressHandle ah = pool.pick(pool.ahs, rnd);
                QueuePair to = pool.pick(pool.qps, rnd);
                if (ah != null && to != null) {
                    s.ud(wr, ah, to.number(), QpLoopback.QKEY);
                }
            }
        }
        s.wrId(wr, rnd.nextLong());
    }

    private int flags() {
        int f = 0;
        for (SendFlag flag : FLAGS) {
            if (rnd.nextInt(3) == 0) {
                f |= flag.bit();
            }
        }
        return f;
    }

    /** An SGE from a registered region, by address, or (for inline) any segment: in range or not. */
    private void fillEntry(PreparedSend s, int wr) {
        int sge = rnd.nextInt(6) == 0 ? odd() : rnd.nextInt(2);
        MemoryRegion mr = pool.pick(pool.mrs, rnd);
        int length = rnd.nextInt(5) == 0 ? odd() : rnd.nextInt(64);
        switch (rnd.nextInt(3)) {
            case 0 -> {
                if (mr != null) {
                    s.sge(wr, sge, mr, rnd.nextInt(8) == 0 ? mr.length() - rnd.nextInt(64) : rnd.nextInt(256), length);
                }
            }
            case 1 -> {
                if (mr != null) {
                    s.sge(wr, sge, mr.address() + (rnd.nextInt(8) == 0 ? -8 : rnd.nextInt(256)), length,
                            rnd.nextInt(6) == 0 ? rnd.nextInt() : mr.lkey());
                }
            }
            default -> {
                Arena a = pool.pick(pool.arenas, rnd);
                if (a != null) {
                    s.sge(wr, sge, a.allocate(Math.max(1, Math.min(length, 4096))));
                }
            }
        }
    }

    private void fillReceive() {
        if (receives.isEmpty()) {
            return;
        }
        PreparedReceive r = receives.get(rnd.nextInt(receives.size()));
        int wr = rnd.nextInt(10) == 0 ? odd() : rnd.nextInt(r.size());
        MemoryRegion mr = pool.pick(pool.mrs, rnd);
        switch (rnd.nextInt(4)) {
            case 0, 1 -> {
                if (mr != null) {
                    r.sge(wr, rnd.nextInt(6) == 0 ? odd() : 0, mr, rnd.nextInt(8) == 0 ? odd() : rnd.nextInt(1024),
                            rnd.nextInt(5) == 0 ? odd() : 64 + rnd.nextInt(256));
                }
            }
            case 2 -> {
                if (mr != null) {
                    r.sge(wr, 0, mr.address() + rnd.nextInt(512), 64, rnd.nextInt(6) == 0 ? rnd.nextInt() : mr.lkey());
                }
            }
            default -> r.sgeCount(wr, rnd.nextInt(4) == 0 ? odd() : rnd.nextInt(2));
        }
        r.wrId(wr, rnd.nextLong());
    }

    private void post() {
        if (rnd.nextBoolean() && !sends.isEmpty()) {
            PreparedSend s = sends.get(rnd.nextInt(sends.size()));
            s.post(rnd.nextInt(8) == 0 ? odd() : 1 + rnd.nextInt(s.size()));
        } else if (!receives.isEmpty()) {
            PreparedReceive r = receives.get(rnd.nextInt(receives.size()));
            r.post(rnd.nextInt(8) == 0 ? odd() : 1 + rnd.nextInt(r.size()));
        }
    }

    private void poll() {
        CompletionQueue cq = pool.pick(pool.cqs, rnd);
        if (cq == null) {
            return;
        }
        int n = cq.poll(batch, rnd.nextInt(8) == 0 ? odd() : 1 + rnd.nextInt(16));
        for (int i = 0; i < n; i++) {
            if (!batch.isSuccess(i)) {
                errorCompletions++;
            }
        }
        if (n > 0 && rnd.nextInt(4) == 0) {
            batch.wrId(rnd.nextInt(8) == 0 ? odd() : rnd.nextInt(n));
        }
    }

    private void modify() {
        QueuePair qp = pool.pick(pool.qps, rnd);
        if (qp == null) {
            return;
        }
        switch (rnd.nextInt(7)) {
            case 0 -> qp.toError();
            case 1 -> qp.toReset();
            case 2 -> toRts(qp);
            case 3 -> qp.toSqd();
            case 4 -> qp.query();
            case 5 -> qp.toRtr(RtrAttributes.builder().destQpNumber(odd()).maxDestRdAtomic(odd()).build());
            default -> qp.state();
        }
    }

    /** Calls with arguments no valid program passes. */
    private void oddCall() {
        switch (rnd.nextInt(6)) {
            case 0 -> new WorkCompletions(odd()).close();
            case 1 -> {
                CompletionQueue cq = pool.pick(pool.cqs, rnd);
                if (cq != null) {
                    cq.requestNotification(rnd.nextBoolean()); // no channel: refused
                }
            }
            case 2 -> {
                SharedReceiveQueue srq = pool.pick(pool.srqs, rnd);
                if (srq != null) {
                    srq.armLimit(odd());
                }
            }
            case 3 -> pool.ctx.queryPort(odd());
            case 4 -> pool.ctx.close(); // refused while anything is open on it
            default -> {
                try (Arena a = Arena.ofConfined()) {
                    pool.pd.register(a.allocate(Math.max(1, Math.min(odd(), 1 << 20))), EnumSet.of(Access.LOCAL_WRITE))
                            .close();
                }
            }
        }
    }

    /** Closes this thread's own objects. */
    void close() {
        sends.forEach(PreparedSend::close);
        receives.forEach(PreparedReceive::close);
        batch.close();
    }
}
