package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.guest.doctor.JsonCheck;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.verbs.AsyncEvent;
import dev.verbs4j.verbs.AsyncEventListener;
import dev.verbs4j.verbs.CmEventChannel;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CmPortSpace;
import dev.verbs4j.verbs.CmConnectionParameters;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.DeviceInfo;
import dev.verbs4j.verbs.NetworkNamespace;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpInitAttributes;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.Verbs;
import dev.verbs4j.verbs.VerbsException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Exclusive netns mode with rxea moved into nsa and rxeb into nsb, the initial namespace without
 * a device (the rig's two-netns-exclusive topology, a 7.x kernel). Threads of this JVM join the
 * namespaces with {@link NetworkNamespace}; the doctor runs through the launcher under
 * {@code ip netns exec}.
 * <pre>ci/rig run --topology two-netns-exclusive mvn -B -o -ntp -P rig -pl pvrdma-guest surefire:test -Dtest.groups=rdma-two-netns,rdma-two-netns-exclusive -Dtest.excludedGroups=none</pre>
 */
@Tag("rdma-two-netns-exclusive")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoNetnsExclusiveRigTest {
    private static final String HIDDEN = "(netns mode exclusive: devices of other namespaces are hidden)";

    private static NetnsPair rig() {
        NetnsPair rig = NetnsPair.fromRig();
        if (!rig.exclusive()) {
            fail("needs the two-netns-exclusive topology; RIG_NETNS_MODE=" + System.getenv("RIG_NETNS_MODE"));
        }
        return rig;
    }

    private static List<String> names() {
        return Verbs.devices().stream().map(DeviceInfo::name).toList();
    }

    @Test
    @Order(1)
    void eachNamespaceListsAndOpensOnlyItsOwnDevice() throws Exception {
        NetnsPair rig = rig();
        for (int side = 0; side < 2; side++) {
            String own = rig.devices()[side];
            String other = rig.devices()[1 - side];
            try (NetworkNamespace ns = NetworkNamespace.open(rig.namespaces()[side])) {
                assertTrue(ns.hasPrivateSysfs(), ns.toString());
                assertEquals(List.of(own), ns.call(TwoNetnsExclusiveRigTest::names), "devices seen from " + ns);
                try (Context ctx = ns.call(() -> Verbs.open(own))) {
                    assertEquals(own, ctx.name());
                    assertTrue(ctx.queryPort(1).isActive(), "port 1 of " + own);
                }
                VerbsException e = assertThrows(VerbsException.class, () -> ns.call(() -> Verbs.open(other)));
                System.out.println(ns.name() + " opening " + other + ": " + e.getMessage());
                assertTrue(e.getMessage().startsWith("no RDMA device named '" + other + "' in this network namespace: "
                        + "it exists on this machine but belongs to another network namespace " + HIDDEN), e.getMessage());
                assertTrue(e.getMessage().contains("devices here: " + own), e.getMessage());
            }
        }
    }

    @Test
    @Order(2)
    void theInitialNamespaceListsNoneAndAChannelThereSaysWhyNotRdma() throws Exception {
        rig();
        assertEquals(List.of(), names(), "the initial namespace sees no device");
        VerbsException e = assertThrows(VerbsException.class, () -> Verbs.open("rxea"));
        assertTrue(e.getMessage().contains("in this network namespace: it exists on this machine but belongs to another "
                + "network namespace " + HIDDEN), e.getMessage());
        // both ends in this JVM: AUTO shares memory, no device needed; forced RDMA is refused with the reason
        ChannelConfig auto = ChannelConfig.defaults().transport(TransportPreference.AUTO).maxMessageSize(4096);
        ChannelConfig rdma = ChannelConfig.defaults().transport(TransportPreference.RDMA).maxMessageSize(4096);
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.BUSY_POLL);
             ChannelServer listener = ChannelServer.listen("127.0.0.1", 0, auto.loop(loop))) {
            var client = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> ChannelConnector.connect("127.0.0.1", listener.port(), auto));
            try (Channel server = listener.accept(Duration.ofSeconds(60));
                 Channel c = client.get(60, TimeUnit.SECONDS)) {
                assertEquals(TransportKind.SHM, c.transport().kind(), c.transport().describe());
                c.send(ChannelTestBytes.pattern(5, 3000)).get(30, TimeUnit.SECONDS);
                assertEquals(-1, ChannelTestBytes.mismatch(server.receive().get(30, TimeUnit.SECONDS).data(), 5));
            }
            var refused = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> ChannelConnector.connect("127.0.0.1", listener.port(), rdma));
            assertThrows(ChannelException.class, () -> listener.accept(Duration.ofSeconds(60)));
            var failed = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> refused.get(60, TimeUnit.SECONDS));
            String why = failed.getCause().getMessage();
            System.out.println("init namespace, rdma forced: " + why);
            assertTrue(why.contains("rdma is forced by configuration but no RDMA device visible in this network "
                    + "namespace (netns mode exclusive"), why);
        }
    }

    /** The moved devices have no QP1: rdma_connect fails, and the exception says why. */
    @Test
    @Order(3)
    void rdmaCmFailsWithAMessageNamingTheMissingQp1() throws Exception {
        NetnsPair rig = rig();
        try (NetworkNamespace nsa = NetworkNamespace.open(rig.namespaces()[0]);
             NetworkNamespace nsb = NetworkNamespace.open(rig.namespaces()[1]);
             CmEventChannel listening = nsa.call(CmEventChannel::create);
             CmEventChannel connecting = nsb.call(CmEventChannel::create)) {
            InetAddress a = InetAddress.getByName(rig.addresses()[0]);
            CmId listener = nsa.call(() -> {
                CmId id = listening.createId(CmPortSpace.TCP);
                id.bind(new InetSocketAddress(a, 0));
                id.listen(1);
                return id;
            });
            try (listener) {
                InetSocketAddress server = new InetSocketAddress(a, listener.localAddress().getPort());
                VerbsException e = nsb.call(() -> {
                    CmId id = connecting.createId(CmPortSpace.TCP);
                    ProtectionDomain pd = null;
                    CompletionQueue cq = null;
                    try {
                        id.resolveAddress(null, server, Duration.ofSeconds(10));
                        id.resolveRoute(Duration.ofSeconds(10));
                        Context ctx = id.context();
                        pd = ctx.allocateProtectionDomain();
                        cq = ctx.createCompletionQueue(8);
                        id.createQueuePair(pd, QpInitAttributes.builder(QpType.RC, cq).build());
                        return assertThrows(VerbsException.class,
                                () -> id.connect(CmConnectionParameters.defaults(), Duration.ofSeconds(20)));
                    } finally {
                        id.close(); // destroys its QP, which holds the CQ and the PD
                        if (cq != null) {
                            cq.close();
                        }
                        if (pd != null) {
                            pd.close();
                        }
                    }
                });
                System.out.println("rdma_connect from nsb: " + e.getMessage());
                assertEquals("rdma_connect", e.verb());
                assertTrue(e.getMessage().contains("rdma_cm cannot work here: port 1 of " + rig.devices()[1]
                        + " has no QP1 (GSI QP)"), e.getMessage());
            }
        }
    }

    /** Text and JSON, through the launcher inside nsa: mode, namespace, the device it owns, rdma_cm. */
    @Test
    @Order(4)
    void theDoctorInANamespaceReportsModeNamespaceDevicesAndRdmaCm() throws Exception {
        NetnsPair rig = rig();
        List<String> prefix = List.of("ip", "netns", "exec", rig.namespaces()[0], RigProcess.launcher().toString(), "doctor");
        RigProcess json = RigProcess.run(concat(prefix, "--json"));
        System.out.println(json.output());
        JsonCheck.validate(json.output().trim());
        String j = json.output();
        assertTrue(j.contains("\"mode\":\"exclusive\""), j);
        assertTrue(j.contains("\"visibleDevices\":[\"" + rig.devices()[0] + "\"]"), j);
        assertTrue(j.contains("\"namespace\":\"net:["), j);
        assertTrue(j.contains("\"rdmaCm\":\"no\""), j);
        assertTrue(j.contains("\"rdmaCmProblems\":[\"" + rig.devices()[0] + " port 1: no QP1 (GSI QP)"), j);
        assertTrue(j.contains("\"verdict\":{\"transport\":\"rdma\""), "verbs work there: " + j);
        RigProcess text = RigProcess.run(prefix);
        System.out.println(text.output());
        String t = text.output();
        assertTrue(t.lines().anyMatch(l -> l.contains("netns") && l.contains("mode exclusive") && l.contains("net:[")
                && l.contains(rig.devices()[0])), t);
        assertTrue(t.lines().anyMatch(l -> l.contains("rdma_cm") && l.contains("WARN") && l.contains("no QP1")), t);
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.add(b);
        return all;
    }

    /** Collects async events on the delivery thread. */
    private static final class Recorder implements AsyncEventListener {
        final BlockingQueue<AsyncEvent> events = new LinkedBlockingQueue<>();

        @Override
        public void onEvent(AsyncEvent event) {
            events.add(event);
        }
    }

    /**
     * rxea moved from nsa to nsb while this JVM holds it open: the holder learns it (a DEVICE_FATAL
     * async event, or a clear error from the next verb), nothing crashes, and nsb can open it. The
     * device is moved back afterwards.
     */
    @Test
    @Order(5)
    void aDeviceMovedAwayWhileHeldIsReportedAndReopensInItsNewNamespace() throws Exception {
        NetnsPair rig = rig();
        String dev = rig.devices()[0];
        Recorder recorder = new Recorder();
        try (NetworkNamespace nsa = NetworkNamespace.open(rig.namespaces()[0])) {
            Context held = nsa.call(() -> Verbs.open(dev));
            List<AutoCloseable> resources = new java.util.ArrayList<>(List.of(held));
            try {
                resources.add(held.asyncEvents(recorder));
                resources.add(held.allocateProtectionDomain());
                resources.add(held.createCompletionQueue(8));
                move(dev, rig.namespaces()[0], rig.namespaces()[1]);
                AsyncEvent fatal = recorder.events.poll(30, TimeUnit.SECONDS);
                String afterMove;
                try {
                    afterMove = "query_port still answers: " + held.queryPort(1).state();
                } catch (VerbsException e) {
                    afterMove = "query_port fails: " + e.getMessage();
                }
                System.out.println("holder after the move: event " + fatal + "; " + afterMove);
                assertTrue(fatal != null && fatal.type() == AsyncEvent.DEVICE_FATAL || afterMove.startsWith("query_port fails"),
                        "the holder learns that the device went away: event " + fatal + ", " + afterMove);
            } finally {
                java.util.Collections.reverse(resources);
                for (AutoCloseable r : resources) { // a dead device may refuse a destroy: a clear error, never a crash
                    try {
                        r.close();
                    } catch (VerbsException e) {
                        System.out.println("closing " + r + " after the move: " + e.getMessage());
                    }
                }
            }
        }
        try (NetworkNamespace nsb = NetworkNamespace.open(rig.namespaces()[1])) {
            assertTrue(nsb.call(TwoNetnsExclusiveRigTest::names).contains(dev), "nsb now lists " + dev);
            try (Context reopened = nsb.call(() -> Verbs.open(dev))) {
                assertTrue(reopened.queryPort(1).isActive(), dev + " port 1 in nsb");
            }
        } finally {
            move(dev, rig.namespaces()[1], rig.namespaces()[0]);
        }
        try (NetworkNamespace nsa = NetworkNamespace.open(rig.namespaces()[0])) {
            assertEquals(List.of(dev), nsa.call(TwoNetnsExclusiveRigTest::names), dev + " is back in nsa");
        }
    }

    /** {@code rdma dev set DEV netns TO}, run in the namespace that owns the device. */
    private static void move(String dev, String from, String to) throws Exception {
        RigProcess r = RigProcess.run(List.of("ip", "netns", "exec", from, "rdma", "dev", "set", dev, "netns", to));
        assertEquals(0, r.exitCode(), "rdma dev set " + dev + " netns " + to + ": " + r.output());
    }
}
