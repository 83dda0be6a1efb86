package dev.verbs4j.verbs;

import dev.verbs4j.bindings.Rdma;
import dev.verbs4j.bindings.sockaddr_in;
import dev.verbs4j.bindings.sockaddr_in6;
import dev.verbs4j.bindings.sockaddr_storage;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/** InetSocketAddress to and from {@code struct sockaddr_in}/{@code sockaddr_in6} (ports in network order). */
final class CmSocketAddresses {
    private static final ValueLayout.OfShort PORT =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final int AF_INET = Rdma.AF_INET();
    static final int AF_INET6 = Rdma.AF_INET6();

    private CmSocketAddresses() {}

    /** A zeroed sockaddr_storage holding {@code address}, which must be resolved. */
    static MemorySegment toNative(InetSocketAddress address, SegmentAllocator allocator) {
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("address " + address + " is not resolved");
        }
        MemorySegment sa = allocator.allocate(sockaddr_storage.layout());
        sa.fill((byte) 0);
        InetAddress ip = address.getAddress();
        if (ip instanceof Inet4Address) {
            sockaddr_in.sin_family(sa, (short) AF_INET);
            sa.set(PORT, sockaddr_in.sin_port$offset(), (short) address.getPort());
            MemorySegment.copy(ip.getAddress(), 0, sa, ValueLayout.JAVA_BYTE, sockaddr_in.sin_addr$offset(), 4);
        } else {
            Inet6Address ip6 = (Inet6Address) ip;
            sockaddr_in6.sin6_family(sa, (short) AF_INET6);
            sa.set(PORT, sockaddr_in6.sin6_port$offset(), (short) address.getPort());
            MemorySegment.copy(ip6.getAddress(), 0, sa, ValueLayout.JAVA_BYTE, sockaddr_in6.sin6_addr$offset(), 16);
            sockaddr_in6.sin6_scope_id(sa, ip6.getScopeId());
        }
        return sa;
    }

    /** The address in a sockaddr_storage-sized segment, or null when it holds none (family 0) or a non-IP one (AF_IB). */
    static InetSocketAddress fromNative(MemorySegment sa) {
        int family = Short.toUnsignedInt(sockaddr_in.sin_family(sa));
        try {
            if (family == AF_INET) {
                byte[] ip = sa.asSlice(sockaddr_in.sin_addr$offset(), 4).toArray(ValueLayout.JAVA_BYTE);
                int port = Short.toUnsignedInt(sa.get(PORT, sockaddr_in.sin_port$offset()));
                return new InetSocketAddress(InetAddress.getByAddress(ip), port);
            }
            if (family == AF_INET6) {
                byte[] ip = sa.asSlice(sockaddr_in6.sin6_addr$offset(), 16).toArray(ValueLayout.JAVA_BYTE);
                int port = Short.toUnsignedInt(sa.get(PORT, sockaddr_in6.sin6_port$offset()));
                int scope = sockaddr_in6.sin6_scope_id(sa);
                InetAddress address = scope == 0 ? InetAddress.getByAddress(ip) : Inet6Address.getByAddress(null, ip, scope);
                return new InetSocketAddress(address, port);
            }
            return null;
        } catch (UnknownHostException e) {
            throw new IllegalStateException("malformed address in sockaddr", e); // lengths are fixed above
        }
    }
}
