package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Anonymous shared memory: a memfd (memfd_create(2), in no filesystem, freed with its last fd
 * and mapping), sealed so that nobody who holds it can shrink it under a mapping (a SIGBUS) or
 * grow it, and mapped shared. The mapping belongs to an arena: closing the arena unmaps it, and
 * after that an access through the segment is a Java exception, never a fault.
 */
public final class SharedMemory {
    private static final int MFD_CLOEXEC = 0x1, MFD_ALLOW_SEALING = 0x2;
    private static final int F_ADD_SEALS = 1033, F_GET_SEALS = 1034;
    public static final int F_SEAL_SEAL = 0x1, F_SEAL_SHRINK = 0x2, F_SEAL_GROW = 0x4;
    /** The seals a segment needs before a peer may map it. */
    public static final int SIZE_SEALS = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW;
    private static final int PROT_READ = 0x1, PROT_WRITE = 0x2, MAP_SHARED = 0x1, SEEK_END = 2;
    private static final MethodHandle MEMFD_CREATE = Libc.function("memfd_create",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle FTRUNCATE = Libc.function("ftruncate",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle LSEEK = Libc.function("lseek",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
    private static final MethodHandle FCNTL = Libc.function("fcntl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle MMAP = Libc.function("mmap",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = Libc.function("munmap",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));

    private SharedMemory() {}

    /** A new memfd of {@code size} bytes (zeroed), sealed against shrinking, growing and further seals; returns its fd. */
    public static int createSealed(String name, long size) {
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            fd = (int) MEMFD_CREATE.invokeExact(Libc.errno(), arena.allocateFrom(name), MFD_CLOEXEC | MFD_ALLOW_SEALING);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        if (fd < 0) {
            throw LinuxCallException.last("cannot create a memfd", "memfd_create");
        }
        try {
            if ((int) FTRUNCATE.invokeExact(Libc.errno(), fd, size) < 0) {
                throw LinuxCallException.last("cannot size the memfd to " + size + " bytes", "ftruncate");
            }
            if ((int) FCNTL.invokeExact(Libc.errno(), fd, F_ADD_SEALS, SIZE_SEALS) < 0) {
                throw LinuxCallException.last("cannot seal the memfd", "fcntl");
            }
            return fd;
        } catch (Throwable t) {
            FileDescriptor.close(fd);
            throw Libc.rethrow(t);
        }
    }

    /** The seals on {@code fd} (F_SEAL_* bits). */
    public static int seals(int fd) {
        try {
            int seals = (int) FCNTL.invokeExact(Libc.errno(), fd, F_GET_SEALS, 0);
            if (seals < 0) {
                throw LinuxCallException.last("cannot read the seals of fd " + fd, "fcntl");
            }
            return seals;
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /** The size of the file behind {@code fd}. */
    public static long size(int fd) {
        try {
            long size = (long) LSEEK.invokeExact(Libc.errno(), fd, 0L, SEEK_END);
            if (size < 0) {
                throw LinuxCallException.last("cannot find the size of fd " + fd, "lseek");
            }
            return size;
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }

    /**
     * Maps {@code size} bytes of {@code fd} shared, read and write, into a segment of
     * {@code arena}: closing the arena unmaps it. The fd may be closed once this returns.
     */
    public static MemorySegment map(int fd, long size, Arena arena) {
        long address;
        try {
            address = (long) MMAP.invokeExact(Libc.errno(), 0L, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0L);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
        if (address == -1L) {
            throw LinuxCallException.last("cannot map " + size + " bytes of fd " + fd, "mmap");
        }
        return MemorySegment.ofAddress(address).reinterpret(size, arena, ignored -> unmap(address, size));
    }

    private static void unmap(long address, long size) {
        try {
            int ignored = (int) MUNMAP.invokeExact(Libc.errno(), address, size);
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }
}
