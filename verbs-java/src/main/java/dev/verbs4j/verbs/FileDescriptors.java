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
    private static final MethodHandle EVENTFD = NativeLibraries.libc("eventfd",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle WRITE = NativeLibraries.libc("write",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle READ = NativeLibraries.libc("read",
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle CLOSE = NativeLibraries.libc("close",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final short POLLIN = 1;
    /** How often an interruptible wait wakes to notice a Java interrupt. */
    private static final int INTERRUPT_CHECK_MILLIS = 100;
    private static final int EFD_NONBLOCK_CLOEXEC = 0x800 | 0x80000;

    private FileDescriptors() {}

    /** True when {@code fd} is readable within {@code timeout} (null = wait forever). */
    static boolean waitReadable(int fd, Duration timeout) {
        try (Arena arena = Arena.ofConfined()) {
            return waitReadable(fd, timeout == null ? -1 : timeout.toNanos(), scratch(arena));
        }
    }

    /** Native scratch memory for {@link #waitReadable(int, long, MemorySegment)}: errno capture + pollfd. */
    static MemorySegment scratch(SegmentAllocator allocator) {
        return allocator.allocate(Errno.CAPTURE_LAYOUT.byteSize() + 24, 8);
    }

    /**
     * Allocation-free form for event loops: {@code timeoutNanos < 0} waits forever; {@code scratch}
     * comes from {@link #scratch} and is used by one thread at a time.
     */
    static boolean waitReadable(int fd, long timeoutNanos, MemorySegment scratch) {
        return waitReadable(fd, -1, timeoutNanos, scratch, true);
    }

    /**
     * As above; false at once when {@code wakeFd} (an eventfd, -1 for none) is or becomes readable.
     * {@code interruptible}: wake every 100 ms to notice a Java interrupt (and throw). Otherwise the
     * wait is one poll call for the whole timeout, for a thread ended through {@code wakeFd} that
     * must not wake while idle.
     */
    static boolean waitReadable(int fd, int wakeFd, long timeoutNanos, MemorySegment scratch, boolean interruptible) {
        long deadline = timeoutNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        MemorySegment errno = scratch.asSlice(0, Errno.CAPTURE_LAYOUT.byteSize());
        MemorySegment pollfd = scratch.asSlice(Errno.CAPTURE_LAYOUT.byteSize(), 16);
        try {
            while (true) {
                pollfd.set(ValueLayout.JAVA_INT, 0, fd);
                pollfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
                pollfd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
                pollfd.set(ValueLayout.JAVA_INT, 8, wakeFd);
                pollfd.set(ValueLayout.JAVA_SHORT, 12, POLLIN);
                pollfd.set(ValueLayout.JAVA_SHORT, 14, (short) 0);
                int slice = interruptible ? INTERRUPT_CHECK_MILLIS : Integer.MAX_VALUE;
                int pollMillis = deadline == Long.MAX_VALUE ? (interruptible ? slice : -1)
                        : (int) Math.min(Math.max(0, (deadline - System.nanoTime()) / 1_000_000), slice);
                int rc = (int) POLL.invokeExact(errno, pollfd, wakeFd < 0 ? 1L : 2L, pollMillis);
                if (rc > 0) {
                    return wakeFd < 0 || pollfd.get(ValueLayout.JAVA_SHORT, 14) == 0;
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

    /** A non-blocking eventfd, to cancel a wait from another thread ({@link #signal}, {@link #drain}). */
    static int eventFd() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Errno.allocate(arena);
            int fd = (int) EVENTFD.invokeExact(errno, 0, EFD_NONBLOCK_CLOEXEC);
            if (fd < 0) {
                throw new VerbsException("cannot create an eventfd", "eventfd", Errno.read(errno), null);
            }
            return fd;
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /** Adds 1 to an eventfd (makes it readable); {@code what} is 8 native bytes holding 1, plus errno room. */
    static void signal(int eventFd, MemorySegment one) {
        counter(WRITE, eventFd, one);
    }

    /** Resets an eventfd; {@code scratch} has room for 8 bytes plus errno capture. */
    static void drain(int eventFd, MemorySegment scratch) {
        counter(READ, eventFd, scratch);
    }

    private static void counter(MethodHandle call, int eventFd, MemorySegment buffer) {
        try {
            long ignored = (long) call.invokeExact(buffer.asSlice(8), eventFd, buffer, 8L); // EAGAIN: already set / empty
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    static void close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            int ignored = (int) CLOSE.invokeExact(Errno.allocate(arena), fd);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }
}
