package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_context;
import dev.verbs4j.bindings.ibv_device_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * An open RDMA device ({@code struct ibv_context}). Queries and the creation of objects on it
 * hold its monitor, which close holds too, so a close racing with them waits (see {@link NativeObject}).
 */
public final class Context extends NativeObject {
    private static final MethodHandle CLOSE_DEVICE =
            NativeLibraries.verbs("ibv_close_device", Rdma.ibv_close_device$descriptor());
    private static final MethodHandle QUERY_DEVICE =
            NativeLibraries.verbs("ibv_query_device", Rdma.ibv_query_device$descriptor());

    private final DeviceInfo device;
    private final ContextOps ops;
    /** False for contexts librdmacm opened: it closes them, so close() only lets go. */
    private final boolean owned;
    /**
     * The device's limits never change while it is open, and QP/SRQ creation and GID reads all
     * check against them: query once, on first use.
     */
    private volatile DeviceAttributes attributes;

    Context(MemorySegment ctx, DeviceInfo device) {
        this(ctx, device, true);
    }

    private Context(MemorySegment ctx, DeviceInfo device, boolean owned) {
        super("context of " + device.name(), ctx.reinterpret(ibv_context.sizeof()), null);
        this.device = device;
        this.ops = new ContextOps(handle());
        this.owned = owned;
    }

    /** A view of a context owned by someone else (librdmacm's, for a CmId): never ibv_close_device'd. */
    static Context borrowed(MemorySegment ctx, DeviceInfo device) {
        return new Context(ctx, device, false);
    }

    public DeviceInfo device() {
        return device;
    }

    public String name() {
        return device.name();
    }

    /** Number of completion vectors (interrupt lines) a CQ can be bound to. */
    public synchronized int completionVectors() {
        return ibv_context.num_comp_vectors(handle());
    }

    /** {@code ibv_query_device}, issued once per context (the attributes are fixed while it is open). */
    public synchronized DeviceAttributes queryDevice() {
        MemorySegment ctx = handle(); // a closed context refuses even a cached answer
        DeviceAttributes known = attributes;
        if (known == null) {
            known = attributes = query(ctx);
        }
        return known;
    }

    private DeviceAttributes query(MemorySegment ctx) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Errno.allocate(arena);
            MemorySegment attr = arena.allocate(ibv_device_attr.layout());
            int rc = (int) QUERY_DEVICE.invokeExact(errno, ctx, attr);
            Calls.checkStatus(rc, errno, "ibv_query_device", "cannot query device " + name());
            return DeviceAttributes.from(attr);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /** Port attributes, including the fields the legacy exported ibv_query_port leaves out. */
    public synchronized PortAttributes queryPort(int port) {
        int ports = queryDevice().physicalPortCount();
        if (port < 1 || port > ports) {
            throw new IllegalArgumentException("port " + port + " outside 1.." + ports + " of " + name() + " (phys_port_cnt)");
        }
        return PortQuery.query(this, port);
    }

    /** The port's GID table with each entry's type and network device. */
    public synchronized List<GidEntry> gidTable(int port) {
        return GidTable.read(this, port);
    }

    /** Picks the GID to use on a port: see {@link GidChooser}. */
    public GidEntry chooseGid(int port, GidChooser chooser) {
        return chooser.choose(name(), port, gidTable(port));
    }

    public ProtectionDomain allocateProtectionDomain() {
        return new ProtectionDomain(this);
    }

    public CompletionChannel createCompletionChannel() {
        return new CompletionChannel(this);
    }

    /** A CQ without a completion channel: poll it. */
    public CompletionQueue createCompletionQueue(int minEntries) {
        return new CompletionQueue(this, minEntries, null, 0);
    }

    /** A CQ whose completions can also be waited for on {@code channel}. */
    public CompletionQueue createCompletionQueue(int minEntries, CompletionChannel channel, int completionVector) {
        return new CompletionQueue(this, minEntries, channel, completionVector);
    }

    /** Starts delivering this device's async events (port up/down, QP fatal, SRQ limit...). */
    public AsyncEvents asyncEvents(AsyncEventListener listener) {
        return new AsyncEvents(this, listener);
    }

    ContextOps ops() {
        return ops;
    }

    MemorySegment pointer() {
        return handle();
    }

    @Override
    void destroy(MemorySegment ctx) {
        if (!owned) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Errno.allocate(arena);
            int rc = (int) CLOSE_DEVICE.invokeExact(errno, ctx);
            Calls.checkStatus(rc, errno, "ibv_close_device", "cannot close " + name());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    @Override
    public String toString() {
        return "Context[" + name() + (isClosed() ? ", closed]" : "]");
    }
}
