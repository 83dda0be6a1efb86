package dev.verbs4j.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import dev.verbs4j.rig.LinkFaults;
import dev.verbs4j.rig.ReliabilityRow;
import dev.verbs4j.verbs.NetworkNamespace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Channels on a faulty wire: a checked stream each way (mixed sizes up to the maximum, immediates,
 * numbered and CRC-checked, {@link CheckedStream}) between nsa and nsb while the veth between
 * them loses, delays, reorders, duplicates or corrupts frames (tc netem on both ends), or goes
 * down. Over RDMA (rxea and rxeb, whose RoCE frames cross the veth) and over TCP (its segments
 * cross the same veth), both ends in this JVM.
 * <p>
 * What is asserted, always: what arrives is a checked prefix of what was sent (nothing lost
 * before it, duplicated, reordered or damaged), on RDMA every send the peer's queue pair
 * acknowledged was delivered, and nothing hangs (every wait is bounded). Then, by {@link Expect}:
 * a fault the transport repairs loses nothing, every message arrives both ways; a fault it cannot
 * repair ends both ends with {@link ChannelError#PEER_LOST} within the peer-loss timeout and a
 * margin. Each case prints one line of figures.
 * <p>
 * Two outcomes are properties of the transports, not of the channel. At 20 % loss each way a
 * segment or packet can go unanswered for longer than the peer-loss timeout (TCP doubles its
 * retransmission timeout each time), so the channel may end there. And soft-RoCE fails its queue
 * pairs as soon as the link goes down (it finds no route to the peer and does not resend), so an
 * RDMA channel on rxe ends at once, naming the link, even for a 3 s outage an adapter's retries
 * would outlast.
 * <pre>ci/rig run --topology two-netns mvn -B -o -ntp -P rig -pl pvrdma-guest surefire:test -Dtest.groups=rdma-two-netns -Dtest.excludedGroups=none -Dtest=WireFaultsTwoNetnsRigTest</pre>
 */
@Tag("rdma-two-netns")
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class WireFaultsTwoNetnsRigTest {
    private static final int MAX_MESSAGE = 16 * 1024;
    /** Messages each way after the fault is in place (before it, as many as flow while it is applied). */
    private static final int AFTER_FAULT = Integer.getInteger("faults.messages", 100);
    /** A stream that loses nothing must still end in this time, whatever the fault costs. */
    private static final Duration STREAM_LIMIT = Duration.ofSeconds(180);
    /** The channel's default peer-loss timeout, which the long outage outlasts. */
    private static final Duration PEER_LOSS = ChannelConfig.defaults().peerLossTimeout();
    /** What the rig's emulated, busy guest adds to a timeout before a failure is reported. */
    private static final Duration MARGIN = Duration.ofSeconds(4);

    enum Fault {
        LOSS_1("loss 1%"), LOSS_5("loss 5%"), LOSS_20("loss 20%"),
        // jitter without reordering: with a rate, netem keeps packets in order
        DELAY("delay 5ms 2ms rate 1gbit"),
        REORDER("delay 2ms reorder 25% 50%"), DUPLICATE("duplicate 5%"), CORRUPT("corrupt 5%"),
        LINK_DOWN_3S(null), LINK_DOWN_LONG(null),
        /** The link goes down for good under channels that carry nothing: only port events and keep-alive tell. */
        LINK_DOWN_IDLE(null);

        final String netem;

        Fault(String netem) {
            this.netem = netem;
        }
    }

    /** What a case must end with. */
    enum Expect {
        EVERYTHING, EVERYTHING_OR_PEER_LOST, PEER_LOST_IN_TIME;

        static Expect of(TransportPreference transport, Fault fault) {
            if (fault == Fault.LINK_DOWN_LONG || fault == Fault.LINK_DOWN_IDLE
                    || fault == Fault.LINK_DOWN_3S && transport == TransportPreference.RDMA) {
                return PEER_LOST_IN_TIME;
            }
            return fault == Fault.LOSS_20 ? EVERYTHING_OR_PEER_LOST : EVERYTHING;
        }
    }

    private static NetnsPair rig;
    private static NetworkNamespace nsa;
    private static NetworkNamespace nsb;

    @BeforeAll
    static void namespaces() {
        rig = NetnsPair.fromRig();
        LinkFaults.requireNetem();
        nsa = NetworkNamespace.open(rig.namespaces()[0]);
        nsb = NetworkNamespace.open(rig.namespaces()[1]);
    }

    @AfterAll
    static void leave() {
        if (nsb != null) {
            nsb.close();
        }
        if (nsa != null) {
            nsa.close();
        }
    }

    /** Every transport under every fault, or those {@code -Dfaults.cases=RDMA:LOSS_1,TCP:DELAY} names. */
    static Stream<Arguments> cases() {
        List<String> only = List.of(System.getProperty("faults.cases", "").split(","));
        List<Arguments> cases = new ArrayList<>();
        for (TransportPreference transport : List.of(TransportPreference.RDMA, TransportPreference.TCP)) {
            for (Fault fault : Fault.values()) {
                if (only.equals(List.of("")) || only.contains(transport + ":" + fault)) {
                    cases.add(Arguments.of(transport, fault));
                }
            }
        }
        return cases.stream();
    }

    private static ChannelConfig config(int side, TransportPreference transport, Fault fault) {
        ChannelConfig c = ChannelConfig.defaults().transport(transport).mode(CompletionMode.EVENT)
                .maxMessageSize(MAX_MESSAGE).connectTimeout(Duration.ofSeconds(60));
        if (fault == Fault.LINK_DOWN_3S && transport == TransportPreference.TCP) {
            // TCP resends 0.2, 0.6, 1.4, 3 and 6.2 s after a loss: after 3 s down the default 5 s
            // ends the connection before the next try; an outage under half the timeout is repaired
            c.peerLossTimeout(Duration.ofSeconds(10));
        }
        return transport == TransportPreference.RDMA ? c.device(rig.devices()[side]).gidIndex(rig.gidIndex()) : c;
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("cases")
    void everyMessageArrivesOnceInOrderAndIntactOrTheChannelEndsInTime(TransportPreference transport, Fault fault)
            throws Exception {
        ChannelConfig here = config(0, transport, fault);
        try (ChannelServer server = nsa.call(() -> ChannelServer.listen(rig.addresses()[0], 0, here));
             LinkFaults n0 = new LinkFaults(rig.namespaces()[0], NetnsPair.veth(0));
             LinkFaults n1 = new LinkFaults(rig.namespaces()[1], NetnsPair.veth(1))) {
            n0.installNetem();
            n1.installNetem();
            Future<Channel> accepted = nsa.submit(() -> server.accept(Duration.ofSeconds(120)));
            try (Channel b = nsb.call(() -> ChannelConnector.connect(rig.addresses()[0], server.port(),
                         config(1, transport, fault)));
                 Channel a = accepted.get(120, TimeUnit.SECONDS)) {
                assertTrue(a.transport().describe().startsWith(transport.name().toLowerCase()), a.transport().describe());
                run(transport, fault, a, b, n0, n1);
            }
        }
    }

    private static void run(TransportPreference transport, Fault fault, Channel a, Channel b, LinkFaults n0,
                            LinkFaults n1) throws Exception {
        if (fault == Fault.LINK_DOWN_IDLE) {
            idle(transport, a, b, n0);
            return;
        }
        CheckedStream toB = new CheckedStream(MAX_MESSAGE);
        CheckedStream toA = new CheckedStream(MAX_MESSAGE);
        List<Thread> threads = List.of(
                Thread.ofPlatform().name("a-sends").start(() -> toB.send(a)),
                Thread.ofPlatform().name("b-receives").start(() -> toB.receive(b, STREAM_LIMIT)),
                Thread.ofPlatform().name("b-sends").start(() -> toA.send(b)),
                Thread.ofPlatform().name("a-receives").start(() -> toA.receive(a, STREAM_LIMIT)));
        awaitTraffic(toA, toB);
        long faultAt = System.nanoTime();
        if (fault.netem != null) {
            n0.netem(fault.netem);
            n1.netem(fault.netem);
        } else {
            n0.down();
        }
        toB.endAfter(AFTER_FAULT);
        toA.endAfter(AFTER_FAULT);
        if (fault == Fault.LINK_DOWN_3S) {
            Thread.sleep(3000); // the fault itself lasts 3 s; this is not a wait for an outcome
            n0.up();
        }
        for (Thread t : threads) {
            t.join(STREAM_LIMIT.plusSeconds(30).toMillis());
            assertTrue(!t.isAlive(), t.getName() + " still runs: a hang");
        }
        double seconds = (System.nanoTime() - faultAt) / 1e9;
        String drops = fault.netem == null ? "link down" : netemCounts(n0) + " / " + netemCounts(n1);
        System.out.printf("%s %s: a->b %s; b->a %s; %.1f s after the fault; %s%n", transport, fault, toB.describe(),
                toA.describe(), seconds, drops);
        reliabilityRow(transport, fault, fault.netem == null ? fault == Fault.LINK_DOWN_3S ? "link down 3 s"
                : "link down until both ends failed" : "netem " + fault.netem + " both ways, " + drops, toB, toA, faultAt);
        assertEquals(List.of(), toB.violations(), "a -> b");
        assertEquals(List.of(), toA.violations(), "b -> a");
        if (transport == TransportPreference.RDMA) { // a completed RDMA send was acknowledged by the peer's QP
            assertTrue(toB.completed() <= toB.received(), "acknowledged but not delivered: " + toB.describe());
            assertTrue(toA.completed() <= toA.received(), "acknowledged but not delivered: " + toA.describe());
        }
        switch (Expect.of(transport, fault)) {
            case EVERYTHING -> {
                assertEverything(toB);
                assertEverything(toA);
            }
            case EVERYTHING_OR_PEER_LOST -> {
                assertEverythingOrPeerLost(toB);
                assertEverythingOrPeerLost(toA);
            }
            case PEER_LOST_IN_TIME -> {
                assertEndsInTime(toB, faultAt, transport);
                assertEndsInTime(toA, faultAt, transport);
            }
        }
    }

    /** One message each way, then nothing while the link goes down for good: both ends must still end in time. */
    private static void idle(TransportPreference transport, Channel a, Channel b, LinkFaults n0) throws Exception {
        CheckedStream toB = new CheckedStream(MAX_MESSAGE);
        CheckedStream toA = new CheckedStream(MAX_MESSAGE);
        toB.endAfter(1);
        toA.endAfter(1);
        toB.send(a);
        toA.send(b);
        toB.receive(b, STREAM_LIMIT);
        toA.receive(a, STREAM_LIMIT);
        assertTrue(toB.arrivedWhole() && toA.arrivedWhole(), toB.describe() + "; " + toA.describe());
        toB.endAfter(1); // never sent: each receive below waits until its channel ends
        toA.endAfter(1);
        long faultAt = System.nanoTime();
        n0.down();
        List<Thread> waits = List.of(Thread.ofPlatform().start(() -> toB.receive(b, STREAM_LIMIT)),
                Thread.ofPlatform().start(() -> toA.receive(a, STREAM_LIMIT)));
        for (Thread t : waits) {
            t.join(STREAM_LIMIT.plusSeconds(30).toMillis());
            assertTrue(!t.isAlive(), "an idle end never noticed the link: a hang");
        }
        System.out.printf("%s %s: a %s; b %s%n", transport, Fault.LINK_DOWN_IDLE, toA.describe(), toB.describe());
        reliabilityRow(transport, Fault.LINK_DOWN_IDLE, "link down under idle channels", toB, toA, faultAt);
        assertEndsInTime(toB, faultAt, transport);
        assertEndsInTime(toA, faultAt, transport);
    }

    /**
     * One line for the README's reliability table: what was injected, the messages and bytes
     * checked both ways, what was lost (out of order, duplicated, damaged, or acknowledged and not
     * delivered), and how the case ended.
     */
    private static void reliabilityRow(TransportPreference transport, Fault fault, String injected, CheckedStream toB,
                                       CheckedStream toA, long faultAt) {
        int lost = toB.violations().size() + toA.violations().size();
        if (transport == TransportPreference.RDMA) {
            lost += Math.max(0, toB.completed() - toB.received()) + Math.max(0, toA.completed() - toA.received());
        }
        String ended = toB.failure() == null && toA.failure() == null ? "every message arrived"
                : "PEER_LOST " + (Math.max(toB.failedAt(), toA.failedAt()) - faultAt) / 1_000_000 + " ms after the fault";
        ReliabilityRow.print("wire, " + transport, fault.name(), injected, toB.received() + toA.received(),
                toB.bytesChecked() + toA.bytesChecked(), lost, ended);
    }

    private static void assertEverything(CheckedStream s) {
        assertNull(s.failure(), s.describe());
        assertTrue(s.arrivedWhole(), "every message arrived: " + s.describe());
    }

    private static void assertEverythingOrPeerLost(CheckedStream s) {
        if (s.failure() == null) {
            assertTrue(s.arrivedWhole(), "every message arrived: " + s.describe());
        } else {
            assertPeerLost(s);
        }
    }

    /** The receiving end fails with PEER_LOST within the peer-loss timeout and the margin after the link went down. */
    private static void assertEndsInTime(CheckedStream s, long faultAt, TransportPreference transport) {
        assertPeerLost(s);
        long after = s.failedAt() - faultAt;
        assertTrue(after <= PEER_LOSS.plus(MARGIN).toNanos(), "ended " + after / 1_000_000 + " ms after the "
                + "link went down; peer-loss timeout " + PEER_LOSS + ": " + s.describe());
        System.out.printf("%s: PEER_LOST %d ms after the link went down (peer-loss timeout %d ms): %s%n", transport,
                after / 1_000_000, PEER_LOSS.toMillis(), s.failure().getMessage());
    }

    private static void assertPeerLost(CheckedStream s) {
        ChannelException failure = assertInstanceOf(ChannelException.class, s.failure(), s.describe());
        assertEquals(ChannelError.PEER_LOST, failure.error(), s.describe());
    }

    /** Waits (bounded) until messages flow both ways: the fault then hits traffic in flight. */
    private static void awaitTraffic(CheckedStream toA, CheckedStream toB) throws InterruptedException {
        long deadline = System.nanoTime() + STREAM_LIMIT.toNanos();
        while (toA.received() < 20 || toB.received() < 20) {
            assertTrue(System.nanoTime() < deadline, "no traffic before the fault: " + toB.describe() + "; "
                    + toA.describe());
            assertNull(toA.failure() != null ? toA.failure() : toB.failure(), "failed before the fault");
            Thread.sleep(5);
        }
    }

    private static final Pattern SENT = Pattern.compile("Sent \\d+ bytes (\\d+) pkt \\(dropped (\\d+)");

    /** netem's duplicated and corrupted figures are not in tc's statistics: packets sent and dropped are. */
    private static String netemCounts(LinkFaults link) {
        Matcher m = SENT.matcher(link.stats());
        return m.find() ? link.netdev() + " sent " + m.group(1) + " pkt, dropped " + m.group(2) : link.netdev() + " ?";
    }
}
