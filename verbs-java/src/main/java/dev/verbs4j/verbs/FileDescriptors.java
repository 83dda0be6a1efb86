package dev.verbs4j.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.time.Duration;

/** poll(2) on the event fds of verbs and rdma_cm, so every wait has a timeout and none hangs. */
final class FileDescriptors {
    private static final MethodHandle POLL = NativeLibraries.libc("poll",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final short POLLIN = 1;

    private FileDescriptors() {}

    /** True when {@code fd} is readable within {@code timeout} (null = wait forever). */
    static boolean waitReadable(int fd, Duration timeout) {
        try (Arena arena = Arena.ofConfined()) {
            return waitReadable(fd, timeout == null ? -1 : timeout.toNanos(), scratch(arena));
        }
    }

    /** Native scratch memory for {@link #waitReadable(int, long, MemorySegment)}: errno capture + pollfd. */
    static MemorySegment scratch(SegmentAllocator allocator) {
        return allocator.allocate(Errno.CAPTURE_LAYOUT.byteSize() + 8, 8);
    }

    /**
     * Allocation-free form for event loops: {@code timeoutNanos < 0} waits forever; {@code scratch}
     * comes from {@link #scratch} and is used by one thread at a time.
     */
    static boolean waitReadable(int fd, long timeoutNanos, MemorySegment scratch) {
        long deadline = timeoutNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        MemorySegment errno = scratch.asSlice(0, Errno.CAPTURE_LAYOUT.byteSize());
        MemorySegment pollfd = scratch.asSlice(Errno.CAPTURE_LAYOUT.byteSize(), 8);
        try {
            while (true) {
                pollfd.set(ValueLayout.JAVA_INT, 0, fd);
                pollfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
                pollfd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
                // wake up at least every 100 ms so a Java interrupt is noticed
                long left = deadline == Long.MAX_VALUE ? 100 : Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
                int rc = (int) POLL.invokeExact(errno, pollfd, 1L, (int) Math.min(left, 100));
                if (rc > 0) {
                    return true;
                }
                if (rc < 0 && Errno.read(errno) != Errno.EINTR) {
                    throw new VerbsException("poll on fd " + fd + " failed", "poll", Errno.read(errno), null);
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("interrupted while waiting for an event");
                }
                if (deadline != Long.MAX_VALUE && System.nanoTime() >= deadline) {
                    return false;
                }
            }
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }
}
