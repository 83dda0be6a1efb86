package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_mr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Registered memory ({@code struct ibv_mr}), from {@link ProtectionDomain#register}: the keys
 * that local and remote work requests name.
 *
 * <p><b>Ownership.</b> The caller owns the region but not its memory: the arena the memory came
 * from must stay open until the region is closed, and the region must be closed before its
 * {@link ProtectionDomain}. Closing the region does not free the memory.
 *
 * <p><b>Threads.</b> Safe to share. Closing it while other threads post work requests naming it
 * is safe: the device checks the lkey of every non-inline request and fails it with an error
 * completion once the region is gone, and inline data is read from the memory segment itself,
 * which a post checks is alive and holds acquired (see {@link PreparedSend}).
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
            MemorySegment errno = ErrnoCapture.allocate(arena);
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

    /**
     * The registered memory itself.
     *
     * @return the segment given at registration (owned by its arena, not by the region)
     */
    public MemorySegment memory() {
        return memory;
    }

    /**
     * The local key, which this side's work requests put in their scatter/gather entries.
     *
     * @return the lkey
     * @throws IllegalStateException if the region is closed (its keys are stale)
     */
    public int lkey() {
        handle(); // a closed region's keys are stale: refuse them like any other use
        return lkey;
    }

    /**
     * The key a peer puts in RDMA READ/WRITE/atomic work requests; send it to the peer with
     * {@link #address()} (see {@link RemoteRegion}).
     *
     * @return the rkey
     * @throws IllegalStateException if the region is closed (its keys are stale)
     */
    public int rkey() {
        handle();
        return rkey;
    }

    /**
     * Start address, what a peer uses as remote address (the iova).
     *
     * @return the memory's virtual address
     */
    public long address() {
        return memory.address();
    }

    /**
     * The registered length.
     *
     * @return the length in bytes
     */
    public long length() {
        return memory.byteSize();
    }

    /**
     * The access flags the region was registered with.
     *
     * @return the {@link Access#mask(Set)} bit mask
     */
    public int accessMask() {
        return access;
    }

    @Override
    void destroy(MemorySegment mr) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
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
