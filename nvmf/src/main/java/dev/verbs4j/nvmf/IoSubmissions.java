package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.controller.IoQueue;
import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmfTimeoutException;
import dev.verbs4j.nvmf.wire.Opcodes;
import dev.verbs4j.verbs.MemoryRegion;
import java.util.concurrent.CompletableFuture;

/**
 * The controller's block I/O turned into commands on its I/O queues: every call's arguments
 * checked before anything is sent (block count, MDTS, the namespace's size, the buffer), then a
 * synchronous transfer on the calling thread's queue, split at MDTS and waited for, or one
 * asynchronous command with a callback, a reusable {@link IoRequest} or a new future, round robin
 * over the queues.
 */
final class IoSubmissions {
    private static final int MAX_NLB = 65536;

    private final ControllerConnection connection;
    private final Namespaces namespaces;
    private int nextQueue;

    IoSubmissions(ControllerConnection connection, Namespaces namespaces) {
        this.connection = connection;
        this.namespaces = namespaces;
    }

    /** A synchronous Read, Write, Flush or Write Zeroes of {@code blocks} blocks; {@code buffer} null without data. */
    void transfer(int opcode, int nsid, long startBlock, long blocks, IoBuffer buffer, long offset) {
        if (blocks < 1) {
            throw new IllegalArgumentException("block count must be >= 1, got " + blocks);
        }
        NamespaceIdentity ns = namespaces.active(nsid);
        if (opcode != Opcodes.NVM_FLUSH) {
            NamespaceBounds.check(IoQueue.name(opcode), ns, startBlock, blocks); // before any part of it is sent
        }
        int bs = ns.blockSize();
        int maxBlocks = MAX_NLB;
        MemoryRegion data = null;
        if (buffer != null) {
            buffer.check(offset, blocks * bs);
            maxBlocks = (int) Math.min(MAX_NLB, connection.maxTransferBytes / bs);
            data = buffer.region();
        }
        IoQueue q = connection.io.forKey(Thread.currentThread().threadId());
        q.transfers().lock();
        q.queue().lock().lock();
        try {
            q.transfer(opcode, nsid, startBlock, blocks, bs, maxBlocks, data, offset,
                    System.nanoTime() + connection.options.timeout().toNanos());
        } finally {
            q.queue().lock().unlock();
            q.transfers().unlock();
        }
    }

    /** One command on queue {@code queue}, completed through {@code callback}; false when every slot is in flight. */
    boolean submit(int queue, int opcode, int nsid, long startBlock, int blocks, IoBuffer buffer, long offset,
                   IoCallback callback, long tag) {
        NamespaceIdentity ns = namespaces.active(nsid);
        int bs = ns.blockSize();
        int length = blocks * bs;
        long maxTransferBytes = connection.maxTransferBytes;
        if (blocks < 1 || length > maxTransferBytes) {
            throw new IllegalArgumentException("one command moves 1.." + (maxTransferBytes / bs) + " blocks (MDTS), asked for "
                    + blocks + "; the synchronous read/write split larger transfers");
        }
        NamespaceBounds.check(IoQueue.name(opcode), ns, startBlock, blocks);
        buffer.check(offset, length);
        IoQueue q = connection.io.get(queue);
        boolean posted;
        q.queue().lock().lock();
        try {
            posted = q.submit(opcode, nsid, startBlock, blocks, buffer.region(), offset, length, callback, tag);
        } finally {
            q.queue().lock().unlock();
        }
        return posted; // an armed CQ wakes a sleeping progress thread when this command completes
    }

    /** One command on the next queue in turn, completing {@code request}, which {@code owner} made. */
    IoRequest submit(NvmfController owner, IoRequest request, int opcode, int nsid, long startBlock, int blocks,
                     IoBuffer buffer, long offset) {
        if (request.controller() != owner) {
            throw new IllegalArgumentException("the request was made by another controller");
        }
        request.begin();
        try {
            submitToNextQueue(opcode, nsid, startBlock, blocks, buffer, offset, request.completion());
        } catch (RuntimeException e) {
            request.abandon(); // nothing was posted
            throw e;
        }
        return request;
    }

    /** One command on the next queue in turn, completing a new future. */
    CompletableFuture<Void> async(int opcode, int nsid, long startBlock, int blocks, IoBuffer buffer, long offset) {
        ControllerLoop loop = connection.loop();
        CompletableFuture<Void> f = loop == null ? new CompletableFuture<>() : loop.engine().newFuture(); // its waiter drives the loop
        submitToNextQueue(opcode, nsid, startBlock, blocks, buffer, offset, (tag, error) -> {
            if (error == null) {
                f.complete(null);
            } else {
                f.completeExceptionally(error);
            }
        });
        return f;
    }

    /** Round robin over the I/O queues; waits for a free slot on the chosen one, polling them without a progress thread. */
    private void submitToNextQueue(int opcode, int nsid, long startBlock, int blocks, IoBuffer buffer, long offset,
                                   IoCallback done) {
        int queue = Math.floorMod(nextQueue++, Math.max(1, connection.io.count()));
        long deadline = System.nanoTime() + connection.options.timeout().toNanos();
        while (!submit(queue, opcode, nsid, startBlock, blocks, buffer, offset, done, 0)) {
            if (connection.loop() == null) {
                connection.io.pollAll();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new NvmfTimeoutException("I/O queue " + (queue + 1) + " stayed full for the command timeout");
            }
            Thread.onSpinWait();
        }
    }
}
