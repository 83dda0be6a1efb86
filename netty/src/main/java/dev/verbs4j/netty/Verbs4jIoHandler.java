package dev.verbs4j.netty;

import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.loop.spi.LoopEngine;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Netty's I/O on a verbs4j completion loop: each event loop of a
 * {@code new MultiThreadIoEventLoopGroup(n, Verbs4jIoHandler.newFactory())} owns a loop without a
 * thread of its own ({@link CompletionLoop#withoutThread}) and runs its passes: completion
 * queues, sockets, timers and tasks, each channel's callbacks on that event loop's thread. A pass
 * sleeps in the loop's one epoll_wait only when Netty has no task to run, for no longer than
 * Netty's next scheduled task; a task from another thread cuts the sleep short (the loop's
 * eventfd). Channels of this transport: {@link Verbs4jSocketChannel} and
 * {@link Verbs4jServerSocketChannel}.
 */
public final class Verbs4jIoHandler implements IoHandler {
    /** ADAPTIVE's spin after the last work when no budget is given, as a started loop has it. */
    public static final Duration DEFAULT_SPIN = Duration.ofMillis(1);

    private final CompletionLoop loop;
    private final LoopEngine engine;
    private final Set<Verbs4jIoRegistration> registrations = new HashSet<>();
    /** Channels with work for the end of the pass: reads to complete, bytes left to read. */
    private final ArrayDeque<ChannelStream> afterPass = new ArrayDeque<>();
    private IoHandlerContext idleContext;
    private java.util.function.BooleanSupplier idleCheck;

    private Verbs4jIoHandler(CompletionMode mode, Duration spin) {
        this.loop = CompletionLoop.withoutThread(mode, spin);
        this.engine = loop.engine();
    }

    /**
     * Event loops that run ADAPTIVE completion loops: they spin for 1 ms after the last work
     * (a request and its answer find the loop awake), then sleep.
     *
     * @return the factory to give a {@code MultiThreadIoEventLoopGroup}
     */
    public static IoHandlerFactory newFactory() {
        return newFactory(CompletionMode.ADAPTIVE);
    }

    /**
     * Event loops whose completion loops wait as {@code mode} says.
     *
     * @param mode BUSY_POLL spins all the time, EVENT sleeps whenever idle, ADAPTIVE in between
     * @return the factory to give a {@code MultiThreadIoEventLoopGroup}
     */
    public static IoHandlerFactory newFactory(CompletionMode mode) {
        return newFactory(mode, DEFAULT_SPIN);
    }

    /**
     * Event loops whose completion loops wait as {@code mode} says, ADAPTIVE with spin budget
     * {@code spin}.
     *
     * @param mode how the loops wait
     * @param spin ADAPTIVE's spin budget after the last work
     * @return the factory to give a {@code MultiThreadIoEventLoopGroup}
     */
    public static IoHandlerFactory newFactory(CompletionMode mode, Duration spin) {
        Objects.requireNonNull(mode);
        Objects.requireNonNull(spin);
        return new IoHandlerFactory() {
            @Override
            public IoHandler newHandler(ThreadAwareExecutor executor) {
                return new Verbs4jIoHandler(mode, spin);
            }

            @Override
            public String toString() {
                return "Verbs4jIoHandler(" + mode.label() + ")";
            }
        };
    }

    /** The completion loop this handler runs: the channels registered here set theirs up on it. */
    CompletionLoop loop() {
        return loop;
    }

    /** How this handler's loops wait. */
    CompletionMode mode() {
        return loop.mode();
    }

    /** {@code stream} has work for the end of this pass (or the next, when none runs now). */
    void afterPass(ChannelStream stream) {
        afterPass.add(stream);
    }

    @Override
    public void initialize() {
        engine.runPass(0); // the event loop's thread is the loop's from here on
    }

    @Override
    public int run(IoHandlerContext context) {
        int work = runAfterPass();
        long maxBlock = work > 0 || !afterPass.isEmpty() || !context.canBlock() ? 0 : sleepLimit(context);
        work += engine.runPass(maxBlock, ownerIdle(context)); // a task queued meanwhile keeps it awake
        return work + runAfterPass();
    }

    /** {@code context.canBlock}, made once: the event loop passes the same context every time. */
    private java.util.function.BooleanSupplier ownerIdle(IoHandlerContext context) {
        if (context != idleContext) {
            idleContext = context;
            idleCheck = context::canBlock;
        }
        return idleCheck;
    }

    /** Until Netty's next scheduled task, or -1 (until woken) when none is scheduled. */
    private static long sleepLimit(IoHandlerContext context) {
        if (context.deadlineNanos() == -1) {
            return -1;
        }
        return Math.max(0, context.delayNanos(System.nanoTime()));
    }

    private int runAfterPass() {
        int n = afterPass.size();
        for (int i = 0; i < n; i++) {
            ChannelStream stream = afterPass.poll();
            stream.passEnded();
        }
        return n;
    }

    @Override
    public void wakeup() {
        engine.wakeup();
    }

    @Override
    public IoRegistration register(IoHandle handle) {
        if (!(handle instanceof Verbs4jIoHandle ours)) {
            throw new IllegalArgumentException("a " + handle.getClass().getName() + " cannot be registered with "
                    + "verbs4j's event loop: use Verbs4jSocketChannel or Verbs4jServerSocketChannel");
        }
        Verbs4jIoRegistration registration = new Verbs4jIoRegistration(this, ours);
        registrations.add(registration);
        ours.registered();
        return registration;
    }

    void deregistered(Verbs4jIoRegistration registration) {
        registrations.remove(registration);
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return Verbs4jIoHandle.class.isAssignableFrom(handleType);
    }

    @Override
    public void prepareToDestroy() {
        for (Verbs4jIoRegistration registration : new ArrayList<>(registrations)) {
            registration.handle().closeNow();
        }
    }

    @Override
    public void destroy() {
        runAfterPass();
        loop.close(); // on the event loop's thread: the loop ends at once
    }
}
