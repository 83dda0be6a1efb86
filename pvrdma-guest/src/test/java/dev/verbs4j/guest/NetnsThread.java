package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Runs work on a fresh platform thread that first joins another network namespace with
 * {@code setns(2)}. A network namespace belongs to a thread, not to the process: only that thread
 * moves, and every socket it creates stays in the namespace it was created in, whichever thread
 * uses it later. The rest of the JVM (the completion loop included) stays where it was.
 */
public final class NetnsThread {
    private static final int CLONE_NEWNET = 0x40000000;
    private static final int O_RDONLY_CLOEXEC = 0x80000;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final MethodHandle OPEN = function("open",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle SETNS = function("setns",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE = function("close",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private NetnsThread() {}

    private static MethodHandle function(String name, FunctionDescriptor descriptor) {
        SymbolLookup libc = LINKER.defaultLookup();
        MemorySegment address = libc.find(name).orElseThrow(() -> new IllegalStateException("libc lacks " + name));
        return LINKER.downcallHandle(address, descriptor, CAPTURE_ERRNO);
    }

    /** The rig's namespace without an RDMA device, as the no-rdma topology names it; fails the test elsewhere. */
    public static String rigNamespaceWithoutRdma() {
        String netns = System.getenv("RIG_NETNS");
        String host = System.getenv("RIG_HOST_VETH_ADDR");
        if (netns == null || host == null) {
            fail("needs the rig's no-rdma topology (RIG_NETNS, RIG_HOST_VETH_ADDR); RIG_GUEST="
                    + System.getenv("RIG_GUEST") + " RIG_TOPOLOGY=" + System.getenv("RIG_TOPOLOGY"));
        }
        Path bound = named(netns);
        if (!Files.exists(bound)) {
            fail("network namespace " + netns + " is not bound at " + bound);
        }
        return netns;
    }

    /** The path {@code ip netns add NAME} binds the namespace to. */
    public static Path named(String name) {
        return Path.of("/var/run/netns", name);
    }

    /** The network namespace of the calling thread, e.g. {@code net:[4026532290]}. */
    public static String currentThreadNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/thread-self/ns/net")).toString();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read /proc/thread-self/ns/net", e);
        }
    }

    /** Moves the calling thread into the network namespace bound at {@code namespace}. */
    public static void enter(Path namespace) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(namespace.toString()), O_RDONLY_CLOEXEC);
            if (fd < 0) {
                throw new IllegalStateException("open(" + namespace + ") failed, errno " + errno(state));
            }
            try {
                int rc = (int) SETNS.invokeExact(state, fd, CLONE_NEWNET);
                if (rc != 0) {
                    throw new IllegalStateException("setns(" + namespace + ", CLONE_NEWNET) failed, errno "
                            + errno(state));
                }
            } finally {
                int ignored = (int) CLOSE.invokeExact(state, fd);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /**
     * Runs {@code work} on a new platform thread that has entered {@code namespace} first; the
     * thread ends with the work (it is never reused by anything that expects the old namespace).
     */
    public static <T> CompletableFuture<T> supply(Path namespace, Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("netns-" + namespace.getFileName()).start(() -> {
            try {
                enter(namespace);
                result.complete(work.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result;
    }
}
