package dev.verbs4j.unix;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/** struct sockaddr_in / sockaddr_in6 from and to Java addresses. */
final class SocketAddresses {
    static final int AF_INET = 2, AF_INET6 = 10;
    /** Big enough for either (sockaddr_in6 is 28 bytes). */
    static final long MAX_SIZE = 28;
    private static final java.lang.foreign.ValueLayout.OfShort PORT = JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private SocketAddresses() {}

    static int family(InetAddress address) {
        return address instanceof Inet6Address ? AF_INET6 : AF_INET;
    }

    /** The sockaddr for {@code address:port}; its byte size is the socklen to pass. */
    static MemorySegment of(InetAddress address, int port, SegmentAllocator allocator) {
        byte[] raw = address.getAddress();
        if (address instanceof Inet4Address) {
            MemorySegment sa = allocator.allocate(16, 4);
            sa.set(JAVA_SHORT, 0, (short) AF_INET);
            sa.set(PORT, 2, (short) port);
            MemorySegment.copy(raw, 0, sa, JAVA_BYTE, 4, 4);
            return sa;
        }
        MemorySegment sa = allocator.allocate(28, 4);
        sa.set(JAVA_SHORT, 0, (short) AF_INET6);
        sa.set(PORT, 2, (short) port);
        MemorySegment.copy(raw, 0, sa, JAVA_BYTE, 8, 16);
        sa.set(JAVA_INT, 24, ((Inet6Address) address).getScopeId());
        return sa;
    }

    /** The address and port of a sockaddr_in or sockaddr_in6. */
    static InetSocketAddress toJava(MemorySegment sa) {
        int family = Short.toUnsignedInt(sa.get(JAVA_SHORT, 0));
        byte[] raw = new byte[family == AF_INET6 ? 16 : 4];
        MemorySegment.copy(sa, JAVA_BYTE, family == AF_INET6 ? 8 : 4, raw, 0, raw.length);
        try {
            InetAddress address = family == AF_INET6
                    ? Inet6Address.getByAddress(null, raw, sa.get(JAVA_INT, 24))
                    : InetAddress.getByAddress(raw);
            return new InetSocketAddress(address, port(sa));
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("the kernel gave an address of " + raw.length + " bytes", e);
        }
    }

    /** The port of a sockaddr_in or sockaddr_in6. */
    static int port(MemorySegment sa) {
        return Short.toUnsignedInt(sa.get(PORT, 2));
    }
}
