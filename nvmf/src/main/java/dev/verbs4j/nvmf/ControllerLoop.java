package dev.verbs4j.nvmf;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.loop.spi.CompletionSource;
import dev.verbs4j.loop.spi.LoopEngine;
import dev.verbs4j.nvmf.controller.IoQueue;
import dev.verbs4j.nvmf.queue.NvmfQueue;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.WorkCompletions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * The completion loop that completes a controller's I/O when the caller does not poll
 * ({@link NvmfConnectOptions#withProgressThread}): its thread is the progress thread. Each I/O
 * queue's CQ is a source of the loop, which delivers what it polls under the queue's lock; the
 * queues' completion channel (on the rdma_cm id's context, not a loop device's) sits in the loop's
 * epoll set, so an EVENT or ADAPTIVE loop sleeps with the CQs armed and wakes at a completion. A
 * thread that waits for an I/O drives the loop meanwhile.
 */
final class ControllerLoop {
    private final CompletionLoop loop;
    private final IoQueues io;
    private final CompletionChannel events;
    private final List<CompletionSource> sources = new ArrayList<>();

    private ControllerLoop(CompletionLoop loop, IoQueues io, CompletionChannel events) {
        this.loop = loop;
        this.io = io;
        this.events = events;
    }

    /** One I/O queue's CQ as the loop polls it. */
    private static final class QueueSource implements CompletionSource {
        private final NvmfQueue nq;

        QueueSource(NvmfQueue nq) {
            this.nq = nq;
        }

        @Override
        public CompletionQueue queue() {
            return nq.completionQueue();
        }

        @Override
        public void deliver(WorkCompletions batch) {
            nq.lock().lock();
            try {
                nq.deliver(batch);
            } finally {
                nq.lock().unlock();
            }
        }
    }

    /**
     * @param mode   how the loop waits
     * @param spin   ADAPTIVE's polling budget after the last completion
     * @param io     the connected I/O queues
     * @param events their completion channel, or null when their CQs signal none
     */
    static ControllerLoop start(CompletionMode mode, Duration spin, IoQueues io, CompletionChannel events) {
        ControllerLoop c = new ControllerLoop(CompletionLoop.start(mode, spin), io, events);
        try {
            LoopEngine engine = c.loop.engine();
            if (events != null) {
                engine.watchEvents(events);
            }
            for (int i = 0; i < io.count(); i++) {
                NvmfQueue q = io.get(i).queue();
                QueueSource s = new QueueSource(q);
                q.attach(engine);
                engine.addSource(s);
                c.sources.add(s);
            }
            return c;
        } catch (RuntimeException e) {
            c.stop();
            throw e;
        }
    }

    LoopEngine engine() {
        return loop.engine();
    }

    /** Whether the caller runs the loop's passes (the progress thread, or a thread driving it): it must not wait for I/O. */
    boolean inLoop() {
        return loop.inLoop();
    }

    /** The loop thread's name: the progress thread's. */
    String threadName() {
        String s = loop.toString(); // CompletionLoop[name]
        return s.substring(s.indexOf('[') + 1, s.length() - 1);
    }

    /** After a failure without completions (keep-alive lost): the loop fails what is in flight. */
    void failInFlight() {
        try {
            loop.execute(io::pollAll); // in a pass: the loop is the only one polling the CQs then
        } catch (RejectedExecutionException stopped) {
            // closing: close fails what is in flight
        }
    }

    /** Takes the queues out of the loop and stops it; then the queues are polled directly again. */
    void stop() {
        LoopEngine engine = loop.engine();
        try {
            for (CompletionSource s : sources) {
                engine.removeSource(s);
            }
            if (events != null) {
                engine.unwatchEvents(events);
            }
        } catch (RuntimeException loopGone) {
            // a stopped loop polls nothing any more
        } finally {
            loop.close();
            for (int i = 0; i < io.count(); i++) {
                IoQueue q = io.get(i);
                if (q != null) {
                    q.queue().attach(null);
                }
            }
        }
    }
}
