package dev.verbs4j.unix;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** getrlimit(2): this process's soft and hard limits ({@link #UNLIMITED} for RLIM_INFINITY). */
public final class ResourceLimits {
    /** RLIM_INFINITY as getrlimit reports it. */
    public static final long UNLIMITED = -1;
    /** Linux's numbers, the same on every architecture verbs4j runs on. */
    public static final int RLIMIT_NOFILE = 7, RLIMIT_MEMLOCK = 8;
    private static final MethodHandle GETRLIMIT = Libc.function("getrlimit",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));

    private ResourceLimits() {}

    /**
     * The limit {@code resource} in force now.
     *
     * @return {soft, hard}
     * @throws LinuxCallException when getrlimit fails
     */
    public static long[] get(int resource) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment rlimit = arena.allocate(16, 8);
            if ((int) GETRLIMIT.invokeExact(Libc.errno(), resource, rlimit) != 0) {
                throw LinuxCallException.last("cannot read resource limit " + resource, "getrlimit");
            }
            return new long[] {rlimit.get(JAVA_LONG, 0), rlimit.get(JAVA_LONG, 8)};
        } catch (Throwable t) {
            throw Libc.rethrow(t);
        }
    }
}
