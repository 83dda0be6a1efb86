package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionMode;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.verbs4j.loop.CompletionLoop;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Situation (3) of the issue through the whole conformance suite: the client end of every pair is
 * made on a thread that has joined the rig's {@code nordma} network namespace (rdma netns mode
 * exclusive, no RDMA device there), the server end listens in the init namespace, which sees rxe0.
 * Both ends ask for {@link TransportPreference#AUTO}: TCP must result, and each end must say why
 * (and why not shared memory: the ends are in two network namespaces).
 * The killed-peer test runs its far end under {@code ip netns exec} instead.
 * <p>
 * BUSY and EVENT, not ADAPTIVE: what this class adds is the namespace, and ADAPTIVE is BUSY then
 * EVENT; the whole suite runs in ADAPTIVE over TCP on the host and over RDMA in the rig. Under
 * emulation each mode here takes over a minute of {@code ci/test}'s budget.
 * <p>
 * Needs the rig's no-rdma topology:
 * <pre>ci/rig run --topology no-rdma mvn -B -o -ntp -P rig -pl pvrdma-guest surefire:test -Dtest.groups=rdma-netns -Dtest.excludedGroups=none</pre>
 * Anywhere else (no {@code RIG_NETNS} / {@code RIG_HOST_VETH_ADDR}) every test fails.
 */
@Tag("rdma-netns")
@ParameterizedClass
@EnumSource(value = CompletionMode.class, names = {"BUSY_POLL", "EVENT"})
class ChannelConformanceNetnsRigTest extends ChannelConformanceSuite {
    /** How the reason of the end in the init namespace (it sees rxe0) begins. */
    static final String SERVER_DESCRIPTION = "tcp (reason: peer has no RDMA device visible in its network namespace "
            + "(netns mode exclusive); not shm: the peer is in another network namespace";
    /** How the reason of the end in the namespace without a device begins. */
    static final String CLIENT_DESCRIPTION = "tcp (reason: no RDMA device visible in this network namespace "
            + "(netns mode exclusive); not shm: the peer is in another network namespace";

    @Parameter
    CompletionMode mode;

    /** The namespace without a device, as the no-rdma topology names it. */
    static String netns() {
        return NetnsThread.rigNamespaceWithoutRdma();
    }

    @Override
    String address() {
        netns();
        return System.getenv("RIG_HOST_VETH_ADDR");
    }

    @Override
    ChannelConfig config(CompletionLoop loop) {
        return ChannelConfig.defaults().transport(TransportPreference.AUTO).loop(loop).maxMessageSize(maxMessage());
    }

    @Override
    CompletionMode mode() {
        return mode;
    }

    @Override
    TransportKind expectedTransport() {
        return TransportKind.TCP;
    }

    /** The suite's pair, but the client end is connected (and probes) from a thread inside the namespace. */
    @BeforeEach
    @Override
    void connect() throws Exception {
        String host = address();
        Path namespace = NetnsThread.named(netns());
        CompletionLoop loop = CompletionLoop.start(mode());
        Channel server = null;
        CompletableFuture<Channel> client = null;
        try (ChannelServer listener = ChannelServer.listen(host, 0, config(loop))) {
            ChannelConfig clientConfig = clientConfig(loop);
            client = NetnsThread.supply(namespace, () -> ChannelConnector.connect(host, listener.port(), clientConfig));
            server = listener.accept(Duration.ofSeconds(60));
            pair = new ChannelPair(server, client.get(60, TimeUnit.SECONDS), loop);
        } catch (Exception | Error e) {
            if (server != null) {
                server.close();
            }
            if (client != null) {
                client.thenAccept(Channel::close);
            }
            loop.close();
            throw e;
        }
    }

    @Override
    Process startPeer(int port, CompletionLoop loop) throws Exception {
        return ChannelPeerProcess.start(List.of("ip", "netns", "exec", netns()), address(), port,
                TransportPreference.AUTO, mode(), maxMessage(), "stream");
    }

    @Test
    void eachEndSaysWhyItRunsOnTcp() {
        String server = pair.server().transport().describe(), client = pair.client().transport().describe();
        assertTrue(server.startsWith(SERVER_DESCRIPTION), "this end sees rxe0, its peer none: " + server);
        assertTrue(client.startsWith(CLIENT_DESCRIPTION), "this end sees no device: " + client);
    }
}
