package dev.verbs4j.nvmf.controller;

import dev.verbs4j.nvmf.queue.CommandListener;
import dev.verbs4j.nvmf.queue.NvmfQueue;
import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.wire.Opcodes;
import dev.verbs4j.nvmf.wire.Sgl;
import dev.verbs4j.nvmf.wire.Sqe;
import dev.verbs4j.nvmf.wire.StatusDecoder;
import dev.verbs4j.verbs.MemoryRegion;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;

/**
 * NVM commands on one I/O queue. Data moves by keyed SGL (the target RDMA-reads or -writes the
 * caller's registered memory), or for writes up to the in-capsule size as a second SGE of the
 * command's send (no copy, no RDMA read round trip). Synchronous transfers are split at
 * {@code maxBlocks} per command and pipelined over the queue's slots.
 */
public final class IoQueue implements CommandListener {
    private final NvmfQueue queue;
    private final int inCapsuleBytes;
    private final IoCallback[] callbacks;
    private final long[] userTags;
    private final int[] pending;
    /** What each slot's asynchronous command was, to send it again after a reconnect (arrays: no allocation per I/O). */
    private final int[] opcodes;
    private final int[] nsids;
    private final long[] lbas;
    private final int[] blockCounts;
    private final MemoryRegion[] regions;
    private final long[] offsets;
    private final int[] lengths;
    private final CommandHolder holder;
    /** Held through a synchronous transfer, taken before the queue's lock: {@link #pending} is one transfer's. */
    private final ReentrantLock transfers = new ReentrantLock();

    /** Takes over an asynchronous command the transport failed, to send it again after a reconnect. */
    public interface CommandHolder {
        /** Returns null when it took {@code command} over, else the failure to report to its callback. */
        NvmfException hold(HeldCommand command, NvmfException cause);
    }

    /**
     * @param holder where commands failed by the transport go; null to report the failure to
     *               their callbacks at once
     */
    public IoQueue(NvmfQueue queue, int inCapsuleBytes, CommandHolder holder) {
        this.queue = queue;
        this.holder = holder;
        int n = queue.commandSlots();
        this.opcodes = new int[n];
        this.nsids = new int[n];
        this.lbas = new long[n];
        this.blockCounts = new int[n];
        this.regions = new MemoryRegion[n];
        this.offsets = new long[n];
        this.lengths = new int[n];
        this.inCapsuleBytes = inCapsuleBytes;
        this.callbacks = new IoCallback[queue.commandSlots()];
        this.userTags = new long[queue.commandSlots()];
        this.pending = new int[queue.commandSlots()];
    }

    public NvmfQueue queue() {
        return queue;
    }

    /**
     * The lock of synchronous transfers, taken before {@link NvmfQueue#lock()}: a transfer waiting
     * on a loop-polled queue lets go of the queue's lock, not of this one.
     */
    public ReentrantLock transfers() {
        return transfers;
    }

    /** The command's name in messages: "Read", "Write"... */
    public static String name(int opcode) {
        return switch (opcode) {
            case Opcodes.NVM_READ -> "Read";
            case Opcodes.NVM_WRITE -> "Write";
            case Opcodes.NVM_FLUSH -> "Flush";
            case Opcodes.NVM_WRITE_ZEROES -> "Write Zeroes";
            default -> "opcode 0x" + Integer.toHexString(opcode);
        };
    }

    /** Writes the SQE of slot and posts it, its data {@code length} bytes at {@code offset} in {@code data}. */
    private void post(int slot, int opcode, int nsid, long lba, int blocks, MemoryRegion data, long offset, int length,
                      CommandListener listener, long tag) {
        MemorySegment s = queue.sqes();
        long at = queue.sqeOffset(slot);
        Sqe.begin(s, at, opcode, slot, nsid);
        if (opcode != Opcodes.NVM_FLUSH) {
            Sqe.lbaRange(s, at, lba, blocks);
        }
        boolean hasData = opcode == Opcodes.NVM_READ || opcode == Opcodes.NVM_WRITE;
        if (!hasData) {
            Sgl.none(s, at + Sqe.DPTR);
            queue.submit(slot, null, 0, 0, listener, tag);
        } else if (opcode == Opcodes.NVM_WRITE && length <= inCapsuleBytes) {
            Sgl.inCapsule(s, at + Sqe.DPTR, 0, length);
            queue.submit(slot, data, offset, length, listener, tag);
        } else {
            Sgl.keyed(s, at + Sqe.DPTR, data.address() + offset, length, data.rkey());
            queue.submit(slot, null, 0, 0, listener, tag);
        }
    }

    /**
     * Runs one NVM command over {@code blocks} blocks, split into commands of at most
     * {@code maxBlocks}; waits for all. The data starts at {@code offset} in {@code data} (null for
     * commands without data). The caller holds {@link #transfers()}, then the queue's lock.
     */
    public void transfer(int opcode, int nsid, long lba, long blocks, int blockSize, int maxBlocks, MemoryRegion data,
                         long offset, long deadlineNanos) {
        int inFlight = 0;
        int head = 0;
        NvmfException firstError = null;
        long done = 0;
        do {
            int slot = queue.acquire();
            if (slot < 0 && inFlight == 0) {
                queue.awaitProgress(deadlineNanos, name(opcode)); // asynchronous commands hold every slot
                continue;
            }
            if (slot < 0) {
                firstError = finish(pending[head], opcode, deadlineNanos, firstError);
                head = (head + 1) % pending.length;
                inFlight--;
                continue;
            }
            int n = (int) Math.min(maxBlocks, blocks - done);
            long byteOffset = done * blockSize;
            post(slot, opcode, nsid, lba + done, n, data, offset + byteOffset, n * blockSize, null, 0);
            pending[(head + inFlight) % pending.length] = slot;
            inFlight++;
            done += n;
        } while (done < blocks);
        while (inFlight > 0) {
            firstError = finish(pending[head], opcode, deadlineNanos, firstError);
            head = (head + 1) % pending.length;
            inFlight--;
        }
        if (firstError != null) {
            throw firstError;
        }
    }

    private NvmfException finish(int slot, int opcode, long deadlineNanos, NvmfException firstError) {
        queue.await(slot, deadlineNanos, name(opcode));
        int status = queue.status(slot);
        long result = queue.result(slot);
        queue.release(slot);
        if (status != 0 && firstError == null) {
            return StatusDecoder.exception(name(opcode), status, result, false);
        }
        return firstError;
    }

    /** One command, completed through {@code callback}; false when every slot is in flight. The caller holds the lock. */
    public boolean submit(int opcode, int nsid, long lba, int blocks, MemoryRegion data, long offset, int length,
                          IoCallback callback, long tag) {
        int slot = queue.acquire();
        if (slot < 0) {
            return false;
        }
        callbacks[slot] = callback;
        userTags[slot] = tag;
        opcodes[slot] = opcode;
        nsids[slot] = nsid;
        lbas[slot] = lba;
        blockCounts[slot] = blocks;
        regions[slot] = data;
        offsets[slot] = offset;
        lengths[slot] = length;
        post(slot, opcode, nsid, lba, blocks, data, offset, length, this, opcode);
        return true;
    }

    @Override
    public void completed(int slot, long opcode, int status, long result) {
        IoCallback cb = callbacks[slot];
        callbacks[slot] = null;
        regions[slot] = null;
        cb.completed(userTags[slot], status == 0 ? null
                : StatusDecoder.exception(name((int) opcode), status, result, false));
    }

    @Override
    public void failed(int slot, long opcode, NvmfException cause) {
        IoCallback cb = callbacks[slot];
        callbacks[slot] = null;
        if (cb == null) {
            return;
        }
        MemoryRegion data = regions[slot];
        regions[slot] = null;
        NvmfException report = holder == null ? cause : holder.hold(new HeldCommand(opcodes[slot], nsids[slot],
                lbas[slot], blockCounts[slot], data, offsets[slot], lengths[slot], cb, userTags[slot]), cause);
        if (report != null) {
            cb.completed(userTags[slot], report);
        }
    }
}
