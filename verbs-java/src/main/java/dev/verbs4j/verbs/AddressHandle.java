package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.ibv_ah;
import dev.verbs4j.bindings.ibv_ah_attr;
import dev.verbs4j.bindings.ibv_wc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@code struct ibv_ah}: the destination of UD sends, created once per peer and reused, from
 * {@link ProtectionDomain#createAddressHandle(AddressVector)} or, to answer a received datagram,
 * {@link ProtectionDomain#createAddressHandle(WorkCompletions, int, MemorySegment, int)}.
 *
 * <p><b>Ownership.</b> The caller owns it and closes it before its {@link ProtectionDomain}, once
 * no posted send needs it. {@link PreparedSend#ud} references it without owning it.
 *
 * <p><b>Threads.</b> Safe to share. Closing it while other threads post UD sends naming it is
 * safe: each post holds its requests' address handles open for the call (see {@code NativeObject}),
 * and a post after the close throws {@link IllegalStateException}.
 */
public final class AddressHandle extends NativeObject {
    private static final MethodHandle CREATE_AH = NativeLibraries.verbs("ibv_create_ah", Rdma.ibv_create_ah$descriptor());
    private static final MethodHandle CREATE_AH_FROM_WC =
            NativeLibraries.verbs("ibv_create_ah_from_wc", Rdma.ibv_create_ah_from_wc$descriptor());
    private static final MethodHandle DESTROY_AH =
            NativeLibraries.verbs("ibv_destroy_ah", Rdma.ibv_destroy_ah$descriptor());

    /**
     * Bytes of global route header a UD receive buffer starts with: post UD receives 40 bytes larger
     * than the largest payload.
     */
    public static final int GRH_BYTES = 40;

    private final AddressVector address;

    private AddressHandle(ProtectionDomain pd, MemorySegment ah, AddressVector address) {
        super("address handle", ah.reinterpret(ibv_ah.sizeof()), pd);
        this.address = address;
    }

    static AddressHandle create(ProtectionDomain pd, AddressVector address) {
        if (!address.isGlobal() && pd.context().queryPort(address.port()).linkLayer() == PortAttributes.LINK_LAYER_ETHERNET) {
            throw new IllegalArgumentException("an address handle on RoCE port " + address.port()
                    + " needs a destination GID (global route header)");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment attr = arena.allocate(ibv_ah_attr.layout());
            address.writeTo(attr);
            MemorySegment ah;
            synchronized (pd) { // its close waits: the parent stays valid during the call
                ah = (MemorySegment) CREATE_AH.invokeExact(errno, pd.pointer(), attr);
            }
            Calls.checkPointer(ah, errno, "ibv_create_ah", "cannot create an address handle for " + address);
            return new AddressHandle(pd, ah, address);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * An address handle back to the sender of a received UD datagram: completion {@code index} of
     * {@code completions} and the 40-byte GRH at the start of its receive buffer.
     */
    static AddressHandle replyTo(ProtectionDomain pd, WorkCompletions completions, int index, MemorySegment grh,
                                 int port) {
        if (grh.byteSize() < GRH_BYTES || !grh.isNative()) {
            throw new IllegalArgumentException("the GRH is the first 40 bytes of the native receive buffer");
        }
        completions.wrId(index); // bounds check
        MemorySegment wc = completions.segment().asSlice(index * ibv_wc.sizeof(), ibv_wc.sizeof());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            MemorySegment ah;
            synchronized (pd) { // its close waits: the parent stays valid during the call
                ah = (MemorySegment) CREATE_AH_FROM_WC.invokeExact(errno, pd.pointer(), wc, grh, (byte) port);
            }
            Calls.checkPointer(ah, errno, "ibv_create_ah_from_wc", "cannot create an address handle from a completion");
            return new AddressHandle(pd, ah, null);
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }

    /**
     * What the handle was created from.
     *
     * @return the address vector, or null when the handle came from a completion
     */
    public AddressVector address() {
        return address;
    }

    MemorySegment pointer() {
        return handle();
    }

    @Override
    void destroy(MemorySegment ah) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = ErrnoCapture.allocate(arena);
            int rc = (int) DESTROY_AH.invokeExact(errno, ah);
            Calls.checkStatus(rc, errno, "ibv_destroy_ah", "cannot destroy the address handle");
        } catch (Throwable t) {
            throw Calls.rethrow(t);
        }
    }
}
