package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.verbs.RemoteRegion;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.loop.CompletionLoop;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every channel must do, whatever carries it. Each transport and completion mode runs this
 * same suite: subclasses say how to configure the two ends, which transport must result, and
 * how much work the environment can afford (the rig emulates a CPU, ~10x slower).
 */
abstract class ChannelConformanceSuite implements BufferReceiveConformance {
    static final Duration WAIT = Duration.ofSeconds(30);

    ChannelPair pair;

    /** The configuration of the server end (and of the client end unless overridden); both share {@code loop}. */
    abstract ChannelConfig config(CompletionLoop loop);

    /** The client end's configuration: the server's, unless the two ends sit on different devices. */
    ChannelConfig clientConfig(CompletionLoop loop) {
        return config(loop);
    }

    /** Where the server end listens for the bootstrap connection. */
    String address() {
        return "127.0.0.1";
    }

    abstract CompletionMode mode();

    /** Starts the far end in its own JVM, streaming to {@code port} (the killed-peer test kills it). */
    Process startPeer(int port, CompletionLoop loop) throws Exception {
        return ChannelPeerProcess.start(address(), port, clientConfig(loop), "stream");
    }

    abstract TransportKind expectedTransport();

    /** Messages in the ordering test. */
    int messageCount() {
        return 200;
    }

    @Override
    public ChannelPair pair() {
        return pair;
    }

    /** The largest message the suite sends (and the channels' maximum). */
    public int maxMessage() {
        return 64 * 1024;
    }

    @BeforeEach
    void connect() throws Exception {
        CompletionLoop loop = CompletionLoop.start(mode());
        pair = ChannelPair.open(address(), config(loop), clientConfig(loop));
    }

    @AfterEach
    void disconnect() {
        if (pair != null) {
            pair.close();
        }
    }

    static <T> T await(CompletableFuture<T> f) throws Exception {
        try {
            return f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    static ChannelException failure(CompletableFuture<?> f) throws Exception {
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        return assertInstanceOf(ChannelException.class, e.getCause());
    }

    @Test
    void bothEndsRunOnTheExpectedTransport() {
        assertEquals(expectedTransport(), pair.server().transport().kind(), pair.server().transport().describe());
        assertEquals(expectedTransport(), pair.client().transport().kind(), pair.client().transport().describe());
        assertEquals(maxMessage(), pair.client().maxMessageSize());
    }

    @Test
    void messagesOfManySizesArriveWhole() throws Exception {
        int[] sizes = {0, 1, 7, 64, 1000, 4095, 4096, 4097, 10_000, maxMessage() - 1, maxMessage()};
        for (int i = 0; i < sizes.length; i++) {
            await(pair.client().send(ChannelTestBytes.pattern(i, sizes[i])));
        }
        for (int i = 0; i < sizes.length; i++) {
            ChannelMessage m = await(pair.server().receive());
            assertEquals(sizes[i], m.length(), "message " + i);
            assertEquals(-1, ChannelTestBytes.mismatch(m.data(), i), "bytes of message " + i);
            assertFalse(m.hasImmediate());
        }
    }

    /**
     * Many messages of mixed sizes sent without waiting: on TCP their frames straddle the
     * receiver's reads and its buffer's end, and each must still arrive whole, in order.
     */
    @Test
    void aStreamOfMixedSizesArrivesWholeAndInOrder() throws Exception {
        int n = 300;
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sent.add(pair.client().send(ChannelTestBytes.pattern(i, mixedSize(i))));
        }
        for (int i = 0; i < n; i++) {
            ChannelMessage m = await(pair.server().receive());
            assertEquals(mixedSize(i), m.length(), "message " + i);
            assertEquals(-1, ChannelTestBytes.mismatch(m.data(), i), "bytes of message " + i);
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** Sizes spread over the whole range, small and large mixed, the largest every fifth message. */
    private int mixedSize(int i) {
        return i % 5 == 4 ? maxMessage() : (int) ((i * 7919L) % (maxMessage() + 1));
    }

    @Test
    void messagesArriveInOrderBothWays() throws Exception {
        int n = messageCount();
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sent.add(pair.client().send(number(i)));
            sent.add(pair.server().send(number(n + i)));
        }
        for (int i = 0; i < n; i++) {
            assertEquals(i, await(pair.server().receive()).data().get(INT, 0));
            assertEquals(n + i, await(pair.client().receive()).data().get(INT, 0));
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /**
     * offer sends without a future (retried while the send queue is full), and a listener that
     * reads each message in place gets them all, in order, with their immediate data; the
     * copying onMessage is not called.
     */
    @Test
    void offeredMessagesReachAListenerThatReadsThemInPlace() throws Exception {
        int n = messageCount();
        int[] values = new int[n];
        int[] immediates = new int[n];
        int[] count = {0};
        CountDownLatch all = new CountDownLatch(n);
        CountDownLatch copied = new CountDownLatch(1);
        pair.server().setListener(new ChannelListener() {
            @Override
            public void onMessage(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                                  int immediate) {
                int i = count[0]++; // loop thread only
                values[i] = length == 4 && hasImmediate ? buffer.get(INT, offset) : -1;
                immediates[i] = immediate;
                all.countDown();
            }

            @Override
            public void onMessage(Channel channel, ChannelMessage message) {
                copied.countDown();
            }
        });
        for (int i = 0; i < n; i++) {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!pair.client().offer(number(i), true, 1000 + i)) {
                assertTrue(System.nanoTime() < deadline, "the send queue stayed full");
                Thread.onSpinWait();
            }
        }
        assertTrue(all.await(WAIT.toSeconds(), TimeUnit.SECONDS), count[0] + " of " + n + " offered messages arrived");
        for (int i = 0; i < n; i++) {
            assertEquals(i, values[i], "message " + i);
            assertEquals(1000 + i, immediates[i], "immediate data of message " + i);
        }
        assertEquals(1, copied.getCount(), "the copying onMessage was called");
        pair.client().close();
        assertThrows(ChannelException.class, () -> pair.client().offer(number(0), false, 0));
    }

    @Test
    void theSenderMayReuseItsMemoryAsSoonAsSendReturns() throws Exception {
        // The loop is held, so nothing is received or completed: sends pile up until the send
        // queue is full (on TCP, in the socket's buffers and then in the channel's own queue).
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pair.loop().execute(() -> {
            held.countDown();
            try {
                release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(held.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        int limit = 2000;
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(maxMessage());
            while (sent.size() < limit) {
                ChannelTestBytes.fill(buffer, sent.size());
                CompletableFuture<Void> f = pair.client().trySend(buffer, false, 0);
                if (f == null) {
                    break;
                }
                sent.add(f);
            }
            buffer.fill((byte) 0); // each send returned before this: none may see it
        } finally {
            release.countDown();
        }
        assertTrue(sent.size() < limit, "the send queue never filled, so no send waited in it");
        for (int i = 0; i < sent.size(); i++) {
            ChannelMessage m = await(pair.server().receive());
            assertEquals(maxMessage(), m.length(), "message " + i);
            assertEquals(-1, ChannelTestBytes.mismatch(m.data(), i), "bytes of message " + i);
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void immediateDataTravelsApartFromThePayload() throws Exception {
        await(pair.client().send(ChannelTestBytes.pattern(1, 16), 0xCAFEBABE));
        await(pair.client().send(MemorySegment.NULL, 42));
        await(pair.client().send(ChannelTestBytes.pattern(2, 16)));
        ChannelMessage a = await(pair.server().receive());
        assertTrue(a.hasImmediate());
        assertEquals(0xCAFEBABE, a.immediate());
        assertEquals(-1, ChannelTestBytes.mismatch(a.data(), 1));
        ChannelMessage b = await(pair.server().receive());
        assertTrue(b.hasImmediate());
        assertEquals(42, b.immediate());
        assertEquals(0, b.length());
        assertFalse(await(pair.server().receive()).hasImmediate());
    }

    @Test
    void oneSidedWriteAndReadMoveExactlyTheBytesAsked() throws Exception {
        int size = 32 * 1024;
        try (RegisteredRegion target = pair.server().register(size);
             RegisteredRegion source = pair.client().register(size);
             RegisteredRegion back = pair.client().register(size)) {
            target.memory().fill((byte) 0x5A);
            await(pair.server().send(target.remote().toSegment()));
            RemoteRegion remote = RemoteRegion.fromSegment(await(pair.client().receive()).data());
            assertEquals(target.remote(), remote);

            ChannelTestBytes.fill(source.memory(), 9);
            await(pair.client().write(source, 100, remote, remote.address() + 1000, 5000));
            MemorySegment t = target.memory();
            assertEquals(-1, t.asSlice(1000, 5000).mismatch(source.memory().asSlice(100, 5000)));
            assertEquals((byte) 0x5A, t.get(ValueLayout.JAVA_BYTE, 999), "byte before the write untouched");
            assertEquals((byte) 0x5A, t.get(ValueLayout.JAVA_BYTE, 6000), "byte after the write untouched");

            ChannelTestBytes.fill(t.asSlice(20_000, 3000), 77);
            await(pair.client().read(back, 10, remote, remote.address() + 20_000, 3000));
            assertEquals(-1, ChannelTestBytes.mismatch(back.memory().asSlice(10, 3000), 77));

            await(pair.client().write(source, 0, remote, remote.address() + size - 8, 8)); // the last bytes: in bounds
        }
    }

    @Test
    void aWrongKeyFailsWithRemoteAccess() throws Exception {
        try (RegisteredRegion target = pair.server().register(4096);
             RegisteredRegion source = pair.client().register(4096)) {
            RemoteRegion wrongKey = target.remote().withRkey(target.remote().rkey() ^ 0x5500);
            ChannelException e = failure(pair.client().write(source, 0, wrongKey, wrongKey.address(), 64));
            assertEquals(ChannelError.REMOTE_ACCESS, e.error(), e.getMessage());
            assertEquals((byte) 0, target.memory().get(ValueLayout.JAVA_BYTE, 0), "nothing written");
        }
    }

    @Test
    void anAddressOutsideTheRegionFailsWithRemoteAccess() throws Exception {
        try (RegisteredRegion target = pair.server().register(4096);
             RegisteredRegion local = pair.client().register(4096)) {
            RemoteRegion remote = target.remote();
            ChannelException e = failure(pair.client().read(local, 0, remote, remote.address() + 4096 - 10, 64));
            assertEquals(ChannelError.REMOTE_ACCESS, e.error(), e.getMessage());
        }
    }

    @Test
    void tooLargeAMessageIsRefusedLocally() {
        ChannelException e = assertThrows(ChannelException.class,
                () -> pair.client().send(MemorySegment.ofArray(new byte[maxMessage() + 1])));
        assertEquals(ChannelError.LOCAL_LENGTH, e.error());
    }

    @Test
    void aListenerGetsEveryMessageAndTheEnd() throws Exception {
        List<Integer> got = new ArrayList<>();
        CountDownLatch all = new CountDownLatch(10);
        CompletableFuture<ChannelException> ended = new CompletableFuture<>();
        pair.server().setListener(new ChannelListener() {
            @Override
            public void onMessage(Channel channel, ChannelMessage message) {
                synchronized (got) {
                    got.add(message.data().get(INT, 0));
                }
                all.countDown();
            }

            @Override
            public void onClosed(Channel channel, ChannelException cause) {
                ended.complete(cause);
            }
        });
        for (int i = 0; i < 10; i++) {
            pair.client().send(number(i));
        }
        assertTrue(all.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        synchronized (got) {
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), got);
        }
        pair.client().close();
        assertEquals(null, ended.get(WAIT.toSeconds(), TimeUnit.SECONDS), "an orderly close reports no cause");
    }

    @Test
    void thePeersCloseIsSeenAfterItsLastMessages() throws Exception {
        for (int i = 0; i < 3; i++) {
            pair.client().send(number(i));
        }
        pair.client().close();
        assertFalse(pair.client().isOpen());
        for (int i = 0; i < 3; i++) {
            assertEquals(i, await(pair.server().receive()).data().get(INT, 0), "sent before the close");
        }
        assertEquals(ChannelError.PEER_CLOSED, failure(pair.server().receive()).error());
        assertFalse(pair.server().isOpen());
        assertThrows(ChannelException.class, () -> pair.server().send(number(1)));
        ChannelException onClosed = assertThrows(ChannelException.class, () -> pair.client().send(number(1)));
        assertEquals(ChannelError.CLOSED, onClosed.error());
    }

    @Test
    void sendingWaitsWhileTheSendQueueIsFullAndFailsOnTheLoopThread() throws Exception {
        // a write whose completion is held back keeps its slot: trySend must then say "full".
        // Four queues' worth is enough to fill RDMA's; TCP may drain into socket buffers as fast as
        // we fill, and more rounds there only cost time (each message is 64 KiB checked byte by byte).
        int depth = ChannelConfig.defaults().sendQueueDepth();
        List<CompletableFuture<Void>> taken = new ArrayList<>();
        CompletableFuture<Void> refused = null;
        for (int i = 0; i < depth * 4 && refused == null; i++) {
            CompletableFuture<Void> f = pair.client().trySend(ChannelTestBytes.pattern(i, maxMessage()), false, 0);
            if (f == null) {
                refused = CompletableFuture.completedFuture(null);
            } else {
                taken.add(f);
            }
        }
        // whether or not the queue filled, every accepted send completes and the receiver gets them all in order
        for (int i = 0; i < taken.size(); i++) {
            ChannelMessage m = await(pair.server().receive());
            assertEquals(-1, ChannelTestBytes.mismatch(m.data(), i), "message " + i);
        }
        CompletableFuture.allOf(taken.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        CompletableFuture<ChannelException> fromLoop = new CompletableFuture<>();
        pair.server().setListener((channel, message) -> {
            try {
                for (int i = 0; i < depth + 1; i++) {
                    channel.send(number(i)); // never blocks the loop: fails fast when full instead
                }
                fromLoop.complete(null);
            } catch (ChannelException e) {
                fromLoop.complete(e);
            }
        });
        pair.client().send(number(0));
        ChannelException e = fromLoop.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        if (e != null) {
            assertEquals(ChannelError.SEND_QUEUE_FULL, e.error());
        }
    }

    @Test
    void bothEndsNameTheAddressesOfTheirConnection() {
        assertEquals(pair.server().localAddress(), pair.client().remoteAddress());
        assertEquals(pair.client().localAddress(), pair.server().remoteAddress());
        assertEquals(address(), pair.client().remoteAddress().getAddress().getHostAddress());
    }

    /**
     * A sender that never waits is told when the send queue that refused it has room: the loop
     * both ends share is held in the server's listener, so nothing completes until it lets go.
     */
    @Test
    void aRefusedOfferIsFollowedBySendSpaceOnTheLoop() throws Exception {
        CountDownLatch loopHeld = new CountDownLatch(1), letGo = new CountDownLatch(1), space = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean spaceInLoop = new java.util.concurrent.atomic.AtomicBoolean();
        pair.server().setListener(new ChannelListener() {
            @Override
            public void onMessage(Channel channel, ChannelMessage message) {
                loopHeld.countDown();
                try {
                    letGo.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        pair.client().setListener(new ChannelListener() {
            @Override
            public void onMessage(Channel channel, ChannelMessage message) {}

            @Override
            public void onSendSpace(Channel channel) {
                spaceInLoop.set(pair.loop().inLoop());
                space.countDown();
            }
        });
        MemorySegment message = Arena.ofAuto().allocate(maxMessage());
        assertTrue(pair.client().offer(message, false, 0));
        assertTrue(loopHeld.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
        int offered = 1;
        while (pair.client().offer(message, false, 0)) {
            assertTrue(++offered < 100_000, "the send queue never filled");
        }
        assertEquals(1, space.getCount(), "no slot came free while the loop was held");
        letGo.countDown();
        assertTrue(space.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "onSendSpace after the refusal");
        assertTrue(spaceInLoop.get(), "onSendSpace ran in the loop's passes");
        assertTrue(pair.client().offer(message, false, 0), "a slot is free once it was announced");
    }

    /** How long the peer stays stopped: a pause, as a debugger's or a long GC's. */
    private static final Duration PEER_STOPPED_FOR = Duration.ofSeconds(2);
    /**
     * Our peer-loss timeout with a stopped peer, below the stop: a stopped process's kernel still
     * answers keep-alives and its RDMA device still acknowledges, so the pause must not count as loss.
     */
    private static final Duration PEER_LOSS_BELOW_THE_STOP = Duration.ofSeconds(1);

    /**
     * A peer JVM streaming pattern messages is stopped (SIGSTOP) for longer than our peer-loss
     * timeout and keep-alive and continued, then
     * killed (SIGKILL): what it sent before the stop arrives, the stream resumes, and after the
     * kill the channel fails with PEER_LOST in time; every message taken is whole, in order,
     * once. One peer for both, as each start of a JVM costs seconds in the rig.
     */
    @Test
    void aStoppedPeerResumesAndAKilledOneFailsTheChannelInTimeWithNothingLost() throws Exception {
        withStreamingPeer((channel, peer) -> {
            assertEquals(expectedTransport(), channel.transport().kind());
            ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[maxMessage()]));
            List<byte[]> got = new ArrayList<>();
            while (got.size() < 3) {
                receiveInto(channel, into, Duration.ofSeconds(20), got);
            }
            signal(peer, "STOP");
            long resumeAt = System.nanoTime() + PEER_STOPPED_FOR.toNanos();
            while (System.nanoTime() < resumeAt) { // what the peer sent before it stopped still arrives
                receiveInto(channel, into, Duration.ofNanos(Math.max(1, resumeAt - System.nanoTime())), got);
            }
            signal(peer, "CONT");
            int resumedFrom = got.size();
            while (got.size() < resumedFrom + 20) {
                assertTrue(receiveInto(channel, into, Duration.ofSeconds(20), got), "the continued peer streams again");
            }
            peer.destroyForcibly();
            long killedAt = System.nanoTime();
            ChannelException end = null;
            while (end == null) {
                try {
                    receiveInto(channel, into, Duration.ofSeconds(20), got);
                } catch (ChannelException e) {
                    end = e;
                }
                if (System.nanoTime() - killedAt > Duration.ofSeconds(20).toNanos()) {
                    fail("the channel did not fail within 20 s of the peer being killed");
                }
            }
            assertEquals(ChannelError.PEER_LOST, end.error(), end.getMessage());
            for (int i = 0; i < got.size(); i++) {
                assertEquals(maxMessage(), got.get(i).length, "message " + i + " arrived whole");
                assertEquals(-1, ChannelTestBytes.mismatch(MemorySegment.ofArray(got.get(i)), i),
                        "message " + i + ": in order, once, intact");
            }
            channel.close();
        });
    }

    interface PeerTest {
        void run(Channel channel, Process peer) throws Exception;
    }

    /** A channel to a peer JVM that streams pattern messages 0, 1, 2...; the peer is killed afterwards (SIGKILL ends a stopped one too). */
    private void withStreamingPeer(PeerTest test) throws Exception {
        pair.close();
        pair = null;
        CompletionLoop loop = CompletionLoop.start(mode());
        ChannelConfig listening = config(loop).connectTimeout(ChannelPeerProcess.BOOTSTRAP_WAIT)
                .peerLossTimeout(PEER_LOSS_BELOW_THE_STOP);
        try (ChannelServer listener = ChannelServer.listen(address(), 0, listening)) {
            Process peer = startPeer(listener.port(), loop);
            try {
                test.run(listener.accept(Duration.ofSeconds(120)), peer);
            } finally {
                peer.destroyForcibly();
                peer.waitFor(10, TimeUnit.SECONDS);
                loop.close();
            }
        }
    }

    /** One message (a copy) into {@code got}, or false when none came in time (none is taken then). */
    private static boolean receiveInto(Channel channel, ReceiveBuffer into, Duration timeout, List<byte[]> got) {
        if (!channel.receive(into, timeout)) {
            return false;
        }
        got.add(into.memory().asSlice(0, into.length()).toArray(ValueLayout.JAVA_BYTE));
        return true;
    }

    private static void signal(Process process, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal);
    }

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    static MemorySegment number(int i) {
        return MemorySegment.ofArray(ByteBuffer.allocate(4).order(java.nio.ByteOrder.nativeOrder()).putInt(0, i).array());
    }
}
