package dev.verbs4j.nvmf.controller;

import dev.verbs4j.nvmf.wire.Fabrics;
import dev.verbs4j.nvmf.wire.Opcodes;
import dev.verbs4j.nvmf.wire.Sgl;
import dev.verbs4j.nvmf.wire.Sqe;
import dev.verbs4j.nvmf.wire.StatusDecoder;
import dev.verbs4j.nvmf.queue.NvmfQueue;
import dev.verbs4j.verbs.MemoryRegion;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * Synchronous admin and Fabrics commands on the admin queue: Property Get/Set, Identify, Get Log
 * Page, Keep Alive. Data goes through one registered buffer; callers from any thread (the user's,
 * the keep-alive timer's) take turns on the queue's lock.
 */
public final class AdminChannel {
    private final NvmfQueue queue;
    private final MemoryRegion data;
    private final Duration timeout;

    public AdminChannel(NvmfQueue queue, MemoryRegion data, Duration timeout) {
        this.queue = queue;
        this.data = data;
        this.timeout = timeout;
    }

    public NvmfQueue queue() {
        return queue;
    }

    public long propertyGet(int offset, boolean eightBytes) {
        return run("Property Get 0x" + Integer.toHexString(offset), true, 0, (s, at, cid) -> {
            Fabrics.propertyGet(s, at, cid, offset, eightBytes);
            Sgl.none(s, at + Sqe.DPTR);
        });
    }

    public void propertySet(int offset, boolean eightBytes, long value) {
        run("Property Set 0x" + Integer.toHexString(offset), true, 0, (s, at, cid) -> {
            Fabrics.propertySet(s, at, cid, offset, eightBytes, value);
            Sgl.none(s, at + Sqe.DPTR);
        });
    }

    /** Identify with the given CNS; returns a copy of the 4096 bytes. */
    public MemorySegment identify(int cns, int nsid) {
        queue.lock().lock();
        try {
            run("Identify (CNS " + cns + ", NSID " + nsid + ")", false, Opcodes.IDENTIFY_SIZE, (s, at, cid) -> {
                Sqe.begin(s, at, Opcodes.ADMIN_IDENTIFY, cid, nsid);
                Sqe.cdw(s, at, Sqe.CDW10, cns);
                Sgl.keyed(s, at + Sqe.DPTR, data.address(), Opcodes.IDENTIFY_SIZE, data.rkey());
            });
            return copy(Opcodes.IDENTIFY_SIZE);
        } finally {
            queue.lock().unlock();
        }
    }

    /** Get Log Page {@code logId}, {@code bytes} long (a multiple of 4 up to the data buffer's size) from {@code offset}. */
    public MemorySegment logPage(int logId, int bytes, long offset) {
        if (bytes % 4 != 0 || bytes > data.length()) {
            throw new IllegalArgumentException("log page length " + bytes + ": multiple of 4 up to " + data.length());
        }
        queue.lock().lock();
        try {
            run("Get Log Page 0x" + Integer.toHexString(logId), false, bytes, (s, at, cid) -> {
                Sqe.begin(s, at, Opcodes.ADMIN_GET_LOG_PAGE, cid, 0);
                Sqe.cdw(s, at, Sqe.CDW10, Opcodes.getLogPageCdw10(logId, bytes));
                Sqe.cdw(s, at, Sqe.CDW11, Opcodes.getLogPageCdw11(bytes));
                Sqe.cdw(s, at, Sqe.CDW12, (int) offset);
                Sqe.cdw(s, at, Sqe.CDW13, (int) (offset >>> 32));
                Sgl.keyed(s, at + Sqe.DPTR, data.address(), bytes, data.rkey());
            });
            return copy(bytes);
        } finally {
            queue.lock().unlock();
        }
    }

    public void keepAlive() {
        run("Keep Alive", false, 0, (s, at, cid) -> {
            Sqe.begin(s, at, Opcodes.ADMIN_KEEP_ALIVE, cid, 0);
            Sgl.none(s, at + Sqe.DPTR);
        });
    }

    private MemorySegment copy(int bytes) {
        MemorySegment out = MemorySegment.ofArray(new byte[bytes]);
        out.copyFrom(data.memory().asSlice(0, bytes));
        return out;
    }

    private interface Encoder {
        void write(MemorySegment sqes, long at, int cid);
    }

    private long run(String what, boolean fabrics, int ignoredLength, Encoder encoder) {
        queue.lock().lock();
        try {
            int slot = queue.acquire();
            if (slot < 0) {
                throw new IllegalStateException("admin queue full");
            }
            encoder.write(queue.sqes(), queue.sqeOffset(slot), slot);
            queue.submit(slot, null, 0, 0, null, 0);
            queue.await(slot, System.nanoTime() + timeout.toNanos(), what);
            int status = queue.status(slot);
            long result = queue.result(slot);
            queue.release(slot);
            if (status != 0) {
                throw StatusDecoder.exception(what, status, result, fabrics);
            }
            return result;
        } finally {
            queue.lock().unlock();
        }
    }
}
