package dev.verbs4j.examples.nvmf;

import dev.verbs4j.nvmf.NvmfConnectOptions;
import java.time.Duration;
import java.util.UUID;
import picocli.CommandLine.Option;

/** Connection options as {@code nvme connect} spells them. */
final class ConnectOptions {
    @Option(names = {"-t", "--transport"}, defaultValue = "rdma", description = "transport type (only rdma)")
    String transport;

    @Option(names = {"-a", "--traddr"}, required = true, description = "target address (IPv4 or IPv6)")
    String address;

    @Option(names = {"-w", "--host-traddr"}, description = "local address to connect from (default: the route's)")
    String hostAddress;

    @Option(names = {"-s", "--trsvcid"}, defaultValue = "4420", description = "target port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = {"-n", "--nqn"}, description = "subsystem NQN")
    String nqn;

    @Option(names = {"-q", "--hostnqn"}, description = "host NQN (default: nqn.2014-08.org.nvmexpress:uuid:<host id>)")
    String hostNqn;

    @Option(names = {"-I", "--hostid"}, description = "host id, a UUID (default: random)")
    UUID hostId;

    @Option(names = {"-i", "--nr-io-queues"}, defaultValue = "1", description = "I/O queues (default ${DEFAULT-VALUE})")
    int ioQueues;

    @Option(names = {"-Q", "--queue-size"}, defaultValue = "128", description = "I/O queue size (default ${DEFAULT-VALUE})")
    int queueSize;

    @Option(names = {"-k", "--keep-alive-tmo"}, defaultValue = "10", description = "keep-alive timeout, s (default ${DEFAULT-VALUE})")
    int keepAliveSeconds;

    @Option(names = "--timeout", defaultValue = "10", description = "connect and command timeout, s (default ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Option(names = {"-c", "--reconnect-delay"}, defaultValue = "10",
            description = "seconds between reconnect attempts after a transport failure (default ${DEFAULT-VALUE})")
    int reconnectDelaySeconds;

    @Option(names = {"-l", "--ctrl-loss-tmo"}, defaultValue = "600",
            description = "seconds of reconnect attempts before the controller is given up; 0: no reconnect, "
                    + "negative: forever (default ${DEFAULT-VALUE})")
    int ctrlLossSeconds;

    NvmfConnectOptions toOptions(boolean needNqn) {
        if (!"rdma".equals(transport)) {
            throw new IllegalArgumentException("transport '" + transport + "': only rdma is supported");
        }
        if (needNqn && nqn == null) {
            throw new IllegalArgumentException("-n/--nqn (the subsystem NQN) is required");
        }
        NvmfConnectOptions o = NvmfConnectOptions.rdma(address, port, nqn == null ? NvmfConnectOptions.DISCOVERY_NQN : nqn)
                .withIoQueues(ioQueues).withQueueSize(queueSize)
                .withKeepAlive(Duration.ofSeconds(keepAliveSeconds)).withTimeout(Duration.ofSeconds(timeoutSeconds))
                .withReconnectDelay(Duration.ofSeconds(reconnectDelaySeconds))
                .withControllerLossTimeout(Duration.ofSeconds(ctrlLossSeconds))
                .withHostAddress(hostAddress);
        if (hostNqn != null || hostId != null) {
            UUID id = hostId != null ? hostId : o.hostId();
            o = o.withHost(hostNqn != null ? hostNqn : "nqn.2014-08.org.nvmexpress:uuid:" + id, id);
        }
        return o;
    }
}
