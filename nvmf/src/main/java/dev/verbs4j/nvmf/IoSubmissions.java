package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.controller.HeldCommand;
import dev.verbs4j.nvmf.controller.IoQueue;
import dev.verbs4j.nvmf.types.IoCallback;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTimeoutException;
import dev.verbs4j.nvmf.wire.Opcodes;
import dev.verbs4j.verbs.MemoryRegion;
import java.util.concurrent.CompletableFuture;

/**
 * The controller's block I/O turned into commands on its I/O queues: every call's arguments
 * checked before anything is sent (block count, MDTS, the namespace's size, the buffer), then a
 * synchronous transfer on the calling thread's queue, split at MDTS and waited for, or one
 * asynchronous command with a callback, a reusable {@link IoRequest} or a new future, round robin
 * over the queues. A command the transport fails is sent again on the connection that replaces
 * the broken one ({@link Reconnector}): a synchronous transfer waits for it and starts over (the
 * same data to the same blocks), an asynchronous one is held and sent again then.
 */
final class IoSubmissions {
    private static final int MAX_NLB = 65536;

    private final Reconnector link;
    private final Namespaces namespaces;
    private int nextQueue;

    IoSubmissions(Reconnector link, Namespaces namespaces) {
        this.link = link;
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
        MemoryRegion data = null;
        if (buffer != null) {
            buffer.check(offset, blocks * bs);
            data = buffer.region();
        }
        while (true) {
            ControllerConnection connection = link.current();
            int maxBlocks = buffer == null ? MAX_NLB : (int) Math.min(MAX_NLB, connection.maxTransferBytes / bs);
            IoQueue q = connection.io.forKey(Thread.currentThread().threadId());
            q.transfers().lock();
            q.queue().lock().lock();
            try {
                q.transfer(opcode, nsid, startBlock, blocks, bs, maxBlocks, data, offset,
                        System.nanoTime() + connection.options.timeout().toNanos());
                return;
            } catch (NvmfException e) {
                if (q.queue().failure() == null) {
                    throw e; // the target's answer, not the transport's
                }
            } finally {
                q.queue().lock().unlock();
                q.transfers().unlock();
            }
            link.awaitReplacement(connection, q.queue().failure()); // then the whole transfer again
        }
    }

    /** One command on queue {@code queue}, completed through {@code callback}; false when every slot is in flight. */
    boolean submit(int queue, int opcode, int nsid, long startBlock, int blocks, IoBuffer buffer, long offset,
                   IoCallback callback, long tag) {
        NamespaceIdentity ns = namespaces.active(nsid);
        int bs = ns.blockSize();
        int length = blocks * bs;
        long maxTransferBytes = link.current().maxTransferBytes;
        if (blocks < 1 || length > maxTransferBytes) {
            throw new IllegalArgumentException("one command moves 1.." + (maxTransferBytes / bs) + " blocks (MDTS), asked for "
                    + blocks + "; the synchronous read/write split larger transfers");
        }
        NamespaceBounds.check(IoQueue.name(opcode), ns, startBlock, blocks);
        buffer.check(offset, length);
        return post(queue, opcode, nsid, startBlock, blocks, buffer.region(), offset, length, callback, tag, false);
    }

    /**
     * Posts {@code c} on queue {@code queue} of the current connection; false when every slot is in
     * flight. A queue broken by the transport holds it for the reconnect (true) or fails it
     * (throws, or with {@code report} tells its callback).
     */
    private boolean post(int queue, int opcode, int nsid, long lba, int blocks, MemoryRegion data, long offset,
                         int length, IoCallback callback, long tag, boolean report) {
        while (true) {
            ControllerConnection connection = link.current();
            IoQueue q = connection.io.get(queue % connection.io.count());
            NvmfException broken;
            q.queue().lock().lock();
            try {
                return q.submit(opcode, nsid, lba, blocks, data, offset, length, callback, tag); // an armed CQ
                // wakes a sleeping progress thread when it completes
            } catch (NvmfException e) {
                broken = e;
            } finally {
                q.queue().lock().unlock();
            }
            HeldCommand c = new HeldCommand(opcode, nsid, lba, blocks, data, offset, length, callback, tag);
            switch (link.hold(c, connection, broken)) {
                case HELD -> {
                    return true;
                }
                case RETRY -> {
                    continue;
                }
                case FAILED -> {
                    NvmfException f = link.failureFor(broken);
                    if (!report) {
                        throw f;
                    }
                    c.callback().completed(c.tag(), f);
                    return true;
                }
            }
        }
    }

    /** After a reconnect: sends a held command again, the same data to the same blocks, on the next queue in turn. */
    void resend(HeldCommand c) {
        int queue = Math.floorMod(nextQueue++, Math.max(1, link.current().io.count()));
        while (!post(queue, c.opcode(), c.nsid(), c.lba(), c.blocks(), c.data(), c.offset(), c.length(), c.callback(),
                c.tag(), true)) {
            ControllerConnection connection = link.current();
            if (connection.loop() == null) {
                connection.io.pollAll();
            }
            Thread.onSpinWait();
        }
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
        ControllerLoop loop = link.current().loop();
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
        ControllerConnection connection = link.current();
        int queue = Math.floorMod(nextQueue++, Math.max(1, connection.io.count()));
        long deadline = System.nanoTime() + connection.options.timeout().toNanos();
        while (!submit(queue, opcode, nsid, startBlock, blocks, buffer, offset, done, 0)) {
            connection = link.current();
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
