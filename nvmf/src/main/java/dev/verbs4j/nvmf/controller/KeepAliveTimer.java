package dev.verbs4j.nvmf.controller;

import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Sends Keep Alive every half of the keep-alive timeout on a daemon thread. A Keep Alive that
 * fails or gets no answer within the timeout hands the failure to {@code onFailure}, which breaks
 * the controller: waiting callers see it within one keep-alive period.
 */
public final class KeepAliveTimer implements AutoCloseable {
    private final Thread thread;
    private volatile boolean stopped;

    public KeepAliveTimer(AdminChannel admin, Duration keepAlive, String name, Consumer<NvmfException> onFailure) {
        long periodNanos = keepAlive.toNanos() / 2;
        thread = Thread.ofPlatform().daemon().name("nvmf-keep-alive " + name).unstarted(() -> {
            long next = System.nanoTime() + periodNanos;
            while (!stopped) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(this, wait);
                    continue;
                }
                try {
                    admin.keepAlive();
                } catch (NvmfException e) {
                    if (!stopped) {
                        onFailure.accept(new NvmfTransportException("Keep Alive failed: " + e.getMessage(), e));
                    }
                    return;
                } catch (RuntimeException e) {
                    if (!stopped) {
                        onFailure.accept(new NvmfTransportException("Keep Alive failed", e));
                    }
                    return;
                }
                next += periodNanos;
            }
        });
        thread.start();
    }

    @Override
    public void close() {
        stopped = true;
        java.util.concurrent.locks.LockSupport.unpark(thread);
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
