package dev.verbs4j.verbs;

import dev.verbs4j.unix.Libc;
import dev.verbs4j.unix.Errno;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A named network namespace and one dedicated thread that has joined it the way {@code ip netns
 * exec} joins a process: {@code setns(2)} into the network namespace, then a private mount
 * namespace for the thread with {@code /sys} remounted there, so sysfs shows the namespace's RDMA
 * devices and interfaces. One JVM can so do verbs work in several namespaces at once (one
 * {@code NetworkNamespace} per namespace).
 * <pre>{@code
 * try (NetworkNamespace nsa = NetworkNamespace.open("nsa")) {
 *     Context ctx = nsa.call(() -> Verbs.open("rxea"));   // opened as from inside nsa
 * }
 * }</pre>
 * <b>Per thread</b> (what the executor's thread gets): its network namespace membership, and every
 * socket, uverbs file and rdma_cm id created on it, which belong to that namespace for their whole
 * life whichever thread uses them later; its mount namespace, hence its {@code /sys}. libibverbs
 * finds devices over netlink (answered for the calling thread's namespace) and then reads each
 * one's sysfs directory by name, and the kernel checks the opener's namespace when a uverbs device
 * is opened: {@link Verbs#devices()} and {@link Verbs#open} on the thread see exactly the
 * namespace's devices. Without the private {@code /sys} (not permitted: {@link #hasPrivateSysfs()}
 * is false) a device of the namespace whose sysfs entry the process's {@code /sys} hides (exclusive
 * netns mode) is not found. Objects created from an opened {@link Context} need no particular thread.
 * <p>
 * <b>Per process</b> (the same for every thread): libibverbs' device table (rescanned on each
 * {@code ibv_get_device_list} from the calling thread, so a scan from one namespace drops the devices
 * of another from the table; contexts already open keep theirs), librdmacm's device table (filled
 * once, on its first use), the resource limits (memlock), {@code /dev/infiniband}, and the
 * {@code /proc/net} view (it follows the main thread; {@code /proc/thread-self/net} follows the caller).
 * <p>
 * Joining needs CAP_SYS_ADMIN (root). Closing stops the thread; objects created on it stay valid
 * and stay in the namespace.
 */
public final class NetworkNamespace implements AutoCloseable {
    private static final int CLONE_NEWNET = 0x40000000;
    private static final int O_RDONLY_CLOEXEC = 0x80000;
    private static final Path NAMED = Path.of("/var/run/netns");
    private static final MethodHandle OPEN = Libc.function("open",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle SETNS = Libc.function("setns",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE = Libc.function("close",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final int CLONE_NEWNS = 0x00020000;
    private static final long MS_REC = 0x4000, MS_SLAVE = 1 << 19;
    private static final int MNT_DETACH = 2;
    private static final MethodHandle UNSHARE = Libc.function("unshare",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle MOUNT = Libc.function("mount", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
    private static final MethodHandle UMOUNT2 = Libc.function("umount2",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private final String name;
    private final Path path;
    private final ExecutorService thread;
    private final String identity;
    private final String sysfsProblem;

    private NetworkNamespace(String name, Path path) {
        this.name = name;
        this.path = path;
        this.thread = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon()
                .name("netns-" + name).unstarted(r));
        try {
            // the thread joins first; a failure here leaves no thread behind
            String[] joined = thread.submit(() -> {
                enter(path);
                return new String[] {currentThreadNamespace(), privateSysfs()};
            }).get();
            this.identity = joined[0];
            this.sysfsProblem = joined[1];
        } catch (ExecutionException e) {
            thread.shutdownNow();
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining network namespace " + name, e);
        }
    }

    /**
     * The namespace {@code ip netns add NAME} created (bound at /var/run/netns/NAME), with a new thread
     * joined to it.
     *
     * @param name the namespace's name, without slashes
     * @return the namespace, owned by the caller, who closes it to stop the thread
     * @throws IllegalArgumentException if {@code name} is not a plain name
     * @throws VerbsException if the namespace does not exist or cannot be joined (EPERM without
     *         CAP_SYS_ADMIN)
     */
    public static NetworkNamespace open(String name) {
        if (name.isEmpty() || name.contains("/")) {
            throw new IllegalArgumentException("not a network namespace name: '" + name + "'");
        }
        return open(NAMED.resolve(name));
    }

    /**
     * A namespace by path: a bind mount like /var/run/netns/NAME or /proc/PID/ns/net, with a new thread
     * joined to it.
     *
     * @param path the namespace file
     * @return the namespace, owned by the caller, who closes it to stop the thread
     * @throws VerbsException if the path does not exist or cannot be joined (EPERM without
     *         CAP_SYS_ADMIN)
     */
    public static NetworkNamespace open(Path path) {
        String label = path.startsWith(NAMED) ? path.getFileName().toString() : path.toString();
        if (!Files.exists(path)) {
            throw new VerbsException("no network namespace " + label + " (" + path + " does not exist)", "setns",
                    Errno.ENOENT, "create it with: ip netns add " + path.getFileName());
        }
        return new NetworkNamespace(label, path);
    }

    /**
     * The name it was opened by.
     *
     * @return the name under /var/run/netns, or the whole path for other paths
     */
    public String name() {
        return name;
    }

    /**
     * The kernel's identity of the namespace, e.g. {@code net:[4026532290]}.
     *
     * @return the identity as the thread's {@code /proc/thread-self/ns/net} link reads
     */
    public String identity() {
        return identity;
    }

    /**
     * Whether the thread has its own {@code /sys} of the namespace (see the class comment).
     *
     * @return true when the private mount of {@code /sys} succeeded
     */
    public boolean hasPrivateSysfs() {
        return sysfsProblem.isEmpty();
    }

    /**
     * Why the thread has no private {@code /sys}; "" when it has.
     *
     * @return the reason, or ""
     */
    public String sysfsProblem() {
        return sysfsProblem;
    }

    /**
     * Runs {@code work} on the namespace's thread and waits for its result; its exception is rethrown.
     *
     * @param <T>  the result type
     * @param work what to run inside the namespace
     * @return what {@code work} returned
     * @throws Exception whatever {@code work} threw; {@link InterruptedException} if the caller was
     *         interrupted while waiting (the work goes on)
     * @throws java.util.concurrent.RejectedExecutionException if this namespace is closed
     */
    public <T> T call(Callable<T> work) throws Exception {
        Future<T> result = thread.submit(work);
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            result.cancel(true);
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /**
     * Runs {@code work} on the namespace's thread without waiting.
     *
     * @param <T>  the result type
     * @param work what to run inside the namespace
     * @return its future result
     * @throws java.util.concurrent.RejectedExecutionException if this namespace is closed
     */
    public <T> Future<T> submit(Callable<T> work) {
        return thread.submit(work);
    }

    /**
     * The thread as an executor, e.g. for {@code CompletableFuture.supplyAsync(..., ns.executor())}.
     *
     * @return the single-thread executor; shut down by {@link #close()}, not by the caller
     */
    public ExecutorService executor() {
        return thread;
    }

    /**
     * The network namespace of the calling thread, e.g. {@code net:[4026531840]}; "" if unreadable.
     *
     * @return the identity, or ""
     */
    public static String currentThreadNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/thread-self/ns/net")).toString();
        } catch (java.io.IOException | UnsupportedOperationException e) {
            return "";
        }
    }

    /**
     * Stops the thread (after the work already submitted), waiting up to 30 s for it to end. Objects created on
     * it stay valid and stay in the namespace. Idempotent.
     */
    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "NetworkNamespace[" + name + " " + identity + (hasPrivateSysfs() ? "" : ", process /sys: "
                + sysfsProblem) + "]";
    }

    /**
     * What {@code ip netns exec} does after setns: a mount namespace of the calling thread's own
     * (unshare copies the thread's filesystem context, so other threads keep theirs), mounts kept
     * from propagating back, and a sysfs mounted on /sys, which shows the current network namespace.
     * Returns "" on success, else what failed (the thread then keeps the process's /sys).
     */
    private static String privateSysfs() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment sys = arena.allocateFrom("/sys");
            if ((int) UNSHARE.invokeExact(errno, CLONE_NEWNS) != 0) {
                return "unshare(CLONE_NEWNS): " + Errno.name(ErrnoCapture.read(errno));
            }
            if ((int) MOUNT.invokeExact(errno, arena.allocateFrom("none"), arena.allocateFrom("/"), MemorySegment.NULL,
                    MS_SLAVE | MS_REC, MemorySegment.NULL) != 0) {
                return "mount --make-rslave /: " + Errno.name(ErrnoCapture.read(errno));
            }
            if ((int) UMOUNT2.invokeExact(errno, sys, MNT_DETACH) != 0) {
                return "umount /sys: " + Errno.name(ErrnoCapture.read(errno));
            }
            if ((int) MOUNT.invokeExact(errno, arena.allocateFrom("sysfs"), sys, arena.allocateFrom("sysfs"), 0L,
                    MemorySegment.NULL) != 0) {
                return "mount -t sysfs /sys: " + Errno.name(ErrnoCapture.read(errno));
            }
            return "";
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /** Moves the calling thread into the namespace bound at {@code path}. */
    private static void enter(Path path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int fd = (int) OPEN.invokeExact(errno, arena.allocateFrom(path.toString()), O_RDONLY_CLOEXEC);
            if (fd < 0) {
                int e = ErrnoCapture.read(errno);
                throw new VerbsException("cannot open network namespace " + path, "open", e, "");
            }
            try {
                if ((int) SETNS.invokeExact(errno, fd, CLONE_NEWNET) != 0) {
                    int e = ErrnoCapture.read(errno);
                    throw new VerbsException("cannot join network namespace " + path, "setns", e,
                            e == Errno.EPERM ? "joining a network namespace needs CAP_SYS_ADMIN (run as root)"
                                    : e == Errno.EINVAL ? path + " is not a network namespace" : "");
                }
            } finally {
                int ignored = (int) CLOSE.invokeExact(errno, fd);
            }
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }
}
