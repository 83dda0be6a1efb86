package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A wait for one fd to become readable (poll(2)), cut short by an optional eventfd, with a timeout
 * and no allocation per wait: for the event fds of verbs and rdma_cm, so that every wait has a
 * timeout and none hangs. One thread waits on an instance at a time.
 */
public final class ReadableWait {
    private static final MethodHandle POLL = Libc.function("poll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    /** How often an interruptible wait wakes to notice a Java interrupt. */
    private static final int INTERRUPT_CHECK_MILLIS = 100;

    private final MemorySegment pollfds = Arena.ofAuto().allocate(16, 8);
    private final MemorySegment state = Libc.newCallState();

    /** True when {@code fd} is readable within {@code timeout} (null = wait forever); interruptible. */
    public static boolean awaitReadable(int fd, Duration timeout) {
        return new ReadableWait().await(fd, -1, timeout == null ? -1 : timeout.toNanos(), true);
    }

    /**
     * Waits until {@code fd} is readable (true), or {@code wakeFd} (an eventfd, -1 for none) is or
     * becomes readable, or {@code timeoutNanos} pass (negative: no limit) (false).
     * {@code interruptible}: wake every 100 ms to notice a Java interrupt (and throw). Otherwise the
     * wait is one poll call for the whole timeout, for a thread ended through {@code wakeFd} that
     * must not wake while idle.
     *
     * @throws IllegalStateException when interrupted
     * @throws LinuxCallException    when poll fails
     */
    public boolean await(int fd, int wakeFd, long timeoutNanos, boolean interruptible) {
        long deadline = timeoutNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        try {
            while (true) {
                pollfds.set(JAVA_INT, 0, fd);
                pollfds.set(JAVA_SHORT, 4, FileDescriptor.POLLIN);
                pollfds.set(JAVA_SHORT, 6, (short) 0);
                pollfds.set(JAVA_INT, 8, wakeFd);
                pollfds.set(JAVA_SHORT, 12, FileDescriptor.POLLIN);
                pollfds.set(JAVA_SHORT, 14, (short) 0);
                int slice = interruptible ? INTERRUPT_CHECK_MILLIS : Integer.MAX_VALUE;
                int pollMillis = deadline == Long.MAX_VALUE ? (interruptible ? slice : -1)
                        : (int) Math.min(Math.max(0, (deadline - System.nanoTime()) / 1_000_000), slice);
                int rc = (int) POLL.invokeExact(state, pollfds, wakeFd < 0 ? 1L : 2L, pollMillis);
                if (rc > 0) {
                    return wakeFd < 0 || pollfds.get(JAVA_SHORT, 14) == 0;
                }
                if (rc < 0 && Libc.errno(state) != Errno.EINTR) {
                    throw new LinuxCallException("poll on fd " + fd + " failed", "poll", Libc.errno(state));
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("interrupted while waiting for an event");
                }
                if (deadline != Long.MAX_VALUE && System.nanoTime() >= deadline) {
                    return false;
                }
            }
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }
}
