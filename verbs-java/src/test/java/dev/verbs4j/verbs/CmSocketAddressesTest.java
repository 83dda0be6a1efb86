package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.verbs4j.bindings.sockaddr_storage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class CmSocketAddressesTest {

    @Test
    void ipv4IsLaidOutLikeSockaddrIn() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName("10.77.0.1"), 7174);
            MemorySegment sa = CmSocketAddresses.toNative(address, arena);
            assertEquals(CmSocketAddresses.AF_INET, sa.get(ValueLayout.JAVA_SHORT, 0));
            // port in network byte order: 7174 = 0x1c06
            assertEquals((byte) 0x1c, sa.get(ValueLayout.JAVA_BYTE, 2));
            assertEquals((byte) 0x06, sa.get(ValueLayout.JAVA_BYTE, 3));
            assertEquals(10, sa.get(ValueLayout.JAVA_BYTE, 4));
            assertEquals(77, sa.get(ValueLayout.JAVA_BYTE, 5));
            assertEquals(1, sa.get(ValueLayout.JAVA_BYTE, 7));
            assertEquals(address, CmSocketAddresses.fromNative(sa));
        }
    }

    @Test
    void ipv6RoundTrips() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName("fe80::1:2"), 65535);
            MemorySegment sa = CmSocketAddresses.toNative(address, arena);
            assertEquals(CmSocketAddresses.AF_INET6, sa.get(ValueLayout.JAVA_SHORT, 0));
            assertEquals(address, CmSocketAddresses.fromNative(sa));
        }
    }

    @Test
    void wildcardAndPortZeroRoundTrip() {
        try (Arena arena = Arena.ofConfined()) {
            InetSocketAddress any = new InetSocketAddress(0);
            assertEquals(any, CmSocketAddresses.fromNative(CmSocketAddresses.toNative(any, arena)));
        }
    }

    @Test
    void emptySockaddrIsNoAddress() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = arena.allocate(sockaddr_storage.layout());
            assertNull(CmSocketAddresses.fromNative(sa));
        }
    }

    @Test
    void unresolvedAddressIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class,
                    () -> CmSocketAddresses.toNative(InetSocketAddress.createUnresolved("server", 1), arena));
        }
    }
}
