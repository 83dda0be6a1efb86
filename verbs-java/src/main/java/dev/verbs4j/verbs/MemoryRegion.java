package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_mr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Registered memory ({@code struct ibv_mr}): the keys that local and remote work requests name.
 * Closing it while other threads post work requests naming it is safe: the device checks the
 * lkey of every non-inline request and fails it with an error completion once the region is
 * gone, and inline data is read from the memory segment itself, which a post checks is alive
 * and holds acquired (see {@link PreparedSend}).
 */
public final class MemoryRegion extends NativeObject {
    private static final MethodHandle REG_MR = NativeLibraries.verbs("ibv_reg_mr", Rdma.ibv_reg_mr$descriptor());
    private static final MethodHandle DEREG_MR = NativeLibraries.verbs("ibv_dereg_mr", Rdma.ibv_dereg_mr$descriptor());

    private final MemorySegment memory;
    private final int lkey;
    private final int rkey;
    private final int access;
    private final ProtectionDomain pd;

    MemoryRegion(ProtectionDomain pd, MemorySegment memory, int access) {
        super("memory region", register(pd, memory, access), pd);
        this.memory = memory;
        this.lkey = ibv_mr.lkey(handle());
        this.rkey = ibv_mr.rkey(handle());
        this.access = access;
        this.pd = pd;
        pd.registered(this);
    }

    private static MemorySegment register(ProtectionDomain pd, MemorySegment memory, int access) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("cannot register a heap segment: the device accesses registered "
                    + "memory after the call returns and the GC moves heap arrays; use Arena.allocate(...) "
                    + "or a direct ByteBuffer");
        }
        if (memory.byteSize() == 0) {
            throw new IllegalArgumentException("cannot register an empty segment");
        }
        long maxMrSize = pd.context().queryDevice().maxMrSize();
        if (Long.compareUnsigned(memory.byteSize(), maxMrSize) > 0) {
            throw new IllegalArgumentException("cannot register " + memory.byteSize() + " bytes: the device allows "
                    + Long.toUnsignedString(maxMrSize) + " per region (max_mr_size)");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Errno.allocate(arena);
            MemorySegment mr;
            synchronized (pd) { // its close waits: the parent stays valid during the call
                mr = (MemorySegment) REG_MR.invokeExact(errno, pd.pointer(), memory, memory.byteSize(), access);
            }
            return Calls.checkPointer(mr, errno, "ibv_reg_mr", "cannot register " + memory.byteSize() + " bytes")
                    .reinterpret(ibv_mr.sizeof());
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /** The registered memory itself. */
    public MemorySegment memory() {
        return memory;
    }

    public int lkey() {
        handle(); // a closed region's keys are stale: refuse them like any other use
        return lkey;
    }

    /** The key a peer puts in RDMA READ/WRITE/atomic work requests. */
    public int rkey() {
        handle();
        return rkey;
    }

    /** Start address, what a peer uses as remote address (the iova). */
    public long address() {
        return memory.address();
    }

    public long length() {
        return memory.byteSize();
    }

    public int accessMask() {
        return access;
    }

    @Override
    void destroy(MemorySegment mr) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Errno.allocate(arena);
            int rc = (int) DEREG_MR.invokeExact(errno, mr);
            Calls.checkStatus(rc, errno, "ibv_dereg_mr", "cannot deregister the memory region");
            pd.deregistered(this, lkey);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    @Override
    public String toString() {
        return String.format("MemoryRegion[addr=0x%x, length=%d, lkey=0x%x, rkey=0x%x]", address(), length(), lkey, rkey);
    }
}
