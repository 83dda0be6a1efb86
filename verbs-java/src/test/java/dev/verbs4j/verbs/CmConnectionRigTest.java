package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.rig.Commands;
import dev.verbs4j.rig.ResourceShow;
import dev.verbs4j.rig.RigEnvironment;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * rdma_cm on the rig's rxe0: a server thread and a client thread in this JVM connect through its
 * IPv4 address, exchange private data and one SEND, and disconnect. Every wait is bounded.
 */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CmConnectionRigTest {
    /** Generous: the rig emulates the CPU, and the CM's round trips go through the kernel. */
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration RESOLVE = Duration.ofSeconds(5);
    private static final byte[] HELLO = ascii("hello from the client");
    private static final byte[] WELCOME = ascii("welcome, says the server");
    private static final byte[] GO_AWAY = ascii("go away");
    private static final byte[] MESSAGE = ascii("one SEND over an rdma_cm connection");
    /** No rdma_cm listener uses this port in the rig (rdma_cm ports are apart from TCP's). */
    private static final int NOBODY_LISTENS = 19_999;

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static InetAddress rigAddress() throws Exception {
        return InetAddress.getByName(RigEnvironment.current().address());
    }

    @AfterEach
    void noCmIdIsLeftBehind() throws InterruptedException {
        String device = RigEnvironment.current().device();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int left;
        while ((left = ResourceShow.counts(device).getOrDefault("cm_id", -1)) != 0) {
            if (System.nanoTime() > deadline) {
                fail(left + " cm_id(s) left on " + device + ":\n" + Commands.run("rdma", "resource", "show", "cm_id"));
            }
            Thread.sleep(100);
        }
    }

    @Test
    void connectsExchangesPrivateDataAndASendThenDisconnects() throws Exception {
        try (CmEventChannel serverChannel = CmEventChannel.create();
             CmEventChannel clientChannel = CmEventChannel.create()) {
            exchange(serverChannel, clientChannel);
        }
    }

    /** Both ends wait on one channel from two threads: each still gets exactly its own events. */
    @Test
    void serverAndClientCanShareOneChannel() throws Exception {
        try (CmEventChannel channel = CmEventChannel.create()) {
            exchange(channel, channel);
        }
    }

    private static void exchange(CmEventChannel serverChannel, CmEventChannel clientChannel) throws Exception {
        InetAddress ip = rigAddress();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Future<byte[]> server = pool.submit(() -> acceptAndReceive(serverChannel, ip, port));
            Future<?> client = pool.submit(() -> {
                connectAndSend(clientChannel, new InetSocketAddress(ip, port.get(WAIT.toSeconds(), TimeUnit.SECONDS)));
                return null;
            });
            client.get(120, TimeUnit.SECONDS);
            assertArrayEquals(MESSAGE, server.get(120, TimeUnit.SECONDS));
        }
    }

    private static byte[] acceptAndReceive(CmEventChannel channel, InetAddress ip, CompletableFuture<Integer> port)
            throws Exception {
        try {
            CmId listener = channel.createId(CmPortSpace.TCP);
            try {
                listener.bind(new InetSocketAddress(ip, 0));
                listener.listen(4);
                assertEquals(ip, listener.localAddress().getAddress());
                port.complete(listener.localAddress().getPort());

                CmEvent request = listener.awaitConnectRequest(WAIT);
                assertSame(listener, request.listenId());
                assertStartsWith(HELLO, request.privateData());
                assertTrue(request.connection().responderResources() >= 1, request.connection().toString());
                CmId child = request.id();
                try {
                    assertEquals(ip, child.peerAddress().getAddress());
                    assertEquals(RigEnvironment.current().device(), child.context().name());
                    try (Endpoint endpoint = new Endpoint(child)) {
                        endpoint.postReceive();
                        CmEvent established = child.accept(CmConnectionParameters.defaults().withPrivateData(WELCOME), WAIT);
                        assertSame(child, established.id());
                        byte[] received = endpoint.awaitReceive();
                        child.awaitDisconnected(WAIT);
                        return received;
                    }
                } finally {
                    child.close();
                }
            } finally {
                listener.close();
            }
        } catch (Throwable t) {
            port.completeExceptionally(t);
            throw t;
        }
    }

    private static void connectAndSend(CmEventChannel channel, InetSocketAddress server) {
        CmId id = channel.createId(CmPortSpace.TCP);
        try {
            id.resolveAddress(null, server, RESOLVE);
            assertEquals(RigEnvironment.current().device(), id.context().name());
            assertEquals(1, id.port());
            assertEquals(server, id.peerAddress());
            id.resolveRoute(RESOLVE);
            try (Endpoint endpoint = new Endpoint(id)) {
                CmEvent established = id.connect(CmConnectionParameters.defaults().withPrivateData(HELLO), WAIT);
                assertStartsWith(WELCOME, established.privateData());
                assertEquals(QpState.RTS, endpoint.qp.state());
                endpoint.send(MESSAGE);
                id.disconnect(WAIT);
            }
        } finally {
            id.close();
        }
    }

    @Test
    void aRejectionReachesTheClientWithItsPrivateData() throws Exception {
        InetAddress ip = rigAddress();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Future<?> server = pool.submit(() -> {
                try (CmEventChannel channel = CmEventChannel.create()) {
                    CmId listener = channel.createId(CmPortSpace.TCP);
                    try {
                        listener.bind(new InetSocketAddress(ip, 0));
                        listener.listen(1);
                        port.complete(listener.localAddress().getPort());
                        CmId child = listener.awaitConnectRequest(WAIT).id();
                        child.reject(GO_AWAY);
                        child.close();
                    } finally {
                        listener.close();
                    }
                } catch (Throwable t) {
                    port.completeExceptionally(t);
                    throw t;
                }
                return null;
            });
            try (CmEventChannel channel = CmEventChannel.create()) {
                CmId id = channel.createId(CmPortSpace.TCP);
                try {
                    id.resolveAddress(null, new InetSocketAddress(ip, port.get(WAIT.toSeconds(), TimeUnit.SECONDS)), RESOLVE);
                    id.resolveRoute(RESOLVE);
                    CmException e = assertThrows(CmException.class, () -> id.connect(CmConnectionParameters.defaults(), WAIT));
                    assertEquals(CmEventType.REJECTED, e.actual().type(), e.getMessage());
                    assertEquals(28, e.actual().status(), e.getMessage()); // IB_CM_REJ_CONSUMER_DEFINED
                    assertStartsWith(GO_AWAY, e.actual().privateData());
                } finally {
                    id.close();
                }
            }
            server.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void connectingWhereNothingListensFailsWithinTheTimeout() throws Exception {
        InetSocketAddress nobody = new InetSocketAddress(rigAddress(), NOBODY_LISTENS);
        try (CmEventChannel channel = CmEventChannel.create()) {
            CmId id = channel.createId(CmPortSpace.TCP);
            try {
                id.resolveAddress(null, nobody, RESOLVE);
                id.resolveRoute(RESOLVE);
                CmException e = assertThrows(CmException.class, () -> id.connect(CmConnectionParameters.defaults(), WAIT));
                assertFalse(e.timedOut(), e.getMessage());
                assertTrue(Set.of(CmEventType.REJECTED, CmEventType.UNREACHABLE).contains(e.actual().type()),
                        e.getMessage());
                assertTrue(e.getMessage().startsWith("expected ESTABLISHED, got "), e.getMessage());
                assertNotNull(e.hint(), e.getMessage());
                System.out.println("connect where nothing listens: " + e.getMessage());
            } finally {
                id.close();
            }
        }
    }

    @Test
    void closedChannelsAndIdsRefuseUse() throws Exception {
        CmEventChannel channel = CmEventChannel.create();
        CmId id = channel.createId(CmPortSpace.TCP);
        assertEquals(CmPortSpace.TCP, id.portSpace());
        assertEquals(null, id.context(), "not bound to a device before resolving");
        assertEquals(null, channel.next(Duration.ofMillis(50)), "no event is pending");
        assertThrows(IllegalArgumentException.class,
                () -> id.startConnect(CmConnectionParameters.defaults().withPrivateData(new byte[57])));
        assertThrows(IllegalStateException.class, channel::close, "an id of the channel is still open");

        id.close();
        id.close(); // closing twice is harmless
        InetSocketAddress anywhere = new InetSocketAddress(rigAddress(), 0);
        assertThrows(IllegalStateException.class, () -> id.bind(anywhere));
        assertThrows(IllegalStateException.class, () -> id.listen(1));
        assertThrows(IllegalStateException.class, () -> id.nextEvent(Duration.ofMillis(1)));
        assertThrows(IllegalStateException.class, id::localAddress);

        channel.close();
        assertThrows(IllegalStateException.class, () -> channel.next(Duration.ofMillis(1)));
        assertThrows(IllegalStateException.class, () -> channel.createId(CmPortSpace.TCP));
    }

    private static void assertStartsWith(byte[] expected, byte[] actual) {
        // the transport pads private data with zeros up to its message size
        assertTrue(actual.length >= expected.length, "private data too short: " + actual.length);
        assertArrayEquals(expected, Arrays.copyOf(actual, expected.length));
    }

    /** A PD, CQ, registered buffer and an rdma_cm QP on the device of an id. */
    private static final class Endpoint implements AutoCloseable {
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final Arena arena = Arena.ofShared();
        final MemorySegment buffer = arena.allocate(4096, 4096);
        final MemoryRegion mr;
        final QueuePair qp;
        final WorkCompletions completions = new WorkCompletions(4);

        Endpoint(CmId id) {
            Context context = id.context();
            pd = context.allocateProtectionDomain();
            cq = context.createCompletionQueue(16);
            mr = pd.register(buffer, Set.of(Access.LOCAL_WRITE));
            qp = id.createQueuePair(pd, QpInitAttributes.builder(QpType.RC, cq).build());
            assertSame(qp, id.queuePair());
        }

        void postReceive() {
            try (PreparedReceive receive = qp.prepareReceive(1, 1)) {
                receive.sge(0, 0, mr, 0, (int) buffer.byteSize()).wrId(1).post();
            }
        }

        byte[] awaitReceive() {
            int length = awaitCompletion(1);
            return buffer.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
        }

        void send(byte[] data) {
            MemorySegment.copy(data, 0, buffer, ValueLayout.JAVA_BYTE, 0, data.length);
            try (PreparedSend send = qp.prepareSend(1, 1)) {
                send.opcode(0, SendOpcode.SEND).flags(0, SendFlag.mask(SendFlag.SIGNALED))
                        .sge(0, 0, mr, 0, data.length).wrId(2).post();
            }
            awaitCompletion(2);
        }

        /** Polls until the completion of {@code wrId} arrives; returns its byte length. */
        private int awaitCompletion(long wrId) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (cq.poll(completions) == 0) {
                if (System.nanoTime() > deadline) {
                    fail("no completion for work request " + wrId + " within " + WAIT);
                }
                Thread.onSpinWait();
            }
            assertTrue(completions.isSuccess(0), "completion status " + completions.statusEnum(0));
            assertEquals(wrId, completions.wrId(0));
            return completions.byteLength(0);
        }

        @Override
        public void close() {
            qp.close(); // through rdma_destroy_qp, before the CQ and PD it uses
            mr.close();
            cq.close();
            pd.close();
            completions.close();
            arena.close();
        }
    }
}
