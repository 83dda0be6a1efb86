package dev.verbs4j.examples.quickstart;

import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CmConnectionParameters;
import dev.verbs4j.verbs.CmEvent;
import dev.verbs4j.verbs.CmEventChannel;
import dev.verbs4j.verbs.CmHandshake;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CmPortSpace;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PreparedQueuePair;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.WorkCompletions;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Quick-start: connection set-up with rdma_cm, addressed by IP and port like a socket (the IP is
 * the RDMA device's own address). rdma_cm carries the QP numbers itself, so no TCP side channel
 * is needed. The client sends one message; should it arrive before the server has posted its
 * receive, the client's QP retries (receiver-not-ready retry 7: until the receive is there).
 *
 * <pre>
 * ... dev.verbs4j.examples.quickstart.CmClientServer server DEVICE_IP 7471
 * ... dev.verbs4j.examples.quickstart.CmClientServer client DEVICE_IP 7471
 * </pre>
 */
public final class CmClientServer {
    private CmClientServer() {}

    /**
     * Runs one side.
     *
     * @param args the command line shown in the class comment
     * @throws Exception when a verb, the socket or a wait fails: the program ends with the cause
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: server|client DEVICE_IP PORT");
        }
        InetSocketAddress address = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
        try (CmEventChannel events = CmEventChannel.create()) {
            if (args[0].equals("server")) {
                serve(events, address);
            } else {
                connect(events, address);
            }
        }
    }

    private static void serve(CmEventChannel events, InetSocketAddress address) {
        // README:begin cm-server
        try (CmId listener = events.createId(CmPortSpace.TCP)) {
            listener.bind(address);
            listener.listen(1);
            System.out.println("listening on " + listener.localAddress());
            CmEvent request = listener.awaitConnectRequest(Completions.TIMEOUT);
            // The request's id is bound to the device that the client reached: build on it.
            try (CmId id = request.id();
                 ProtectionDomain pd = id.context().allocateProtectionDomain();
                 CompletionQueue cq = id.context().createCompletionQueue(16);
                 Arena arena = Arena.ofConfined();
                 MemoryRegion mr = pd.register(arena.allocate(4096), Access.ALL_REMOTE);
                 PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq).build();
                 WorkCompletions wc = new WorkCompletions(1)) {
                try (QueuePair qp = CmHandshake.accept(id, prepared, CmConnectionParameters.defaults(),
                                Completions.TIMEOUT).queuePair();
                     PreparedReceive receive = qp.prepareReceive(1, 1)) {
                    receive.sge(0, 0, mr, 0, 4096).post();
                    Completions.awaitOne(cq, wc, "the receive");
                    System.out.println("received: " + mr.memory().getString(0, StandardCharsets.UTF_8));
                    id.awaitDisconnected(Completions.TIMEOUT);
                }
            }
        }
        // README:end
    }

    private static void connect(CmEventChannel events, InetSocketAddress address) {
        // README:begin cm-client
        try (CmId id = CmHandshake.resolve(events, address, Completions.TIMEOUT);
             ProtectionDomain pd = id.context().allocateProtectionDomain();   // the device the route goes through
             CompletionQueue cq = id.context().createCompletionQueue(16);
             Arena arena = Arena.ofConfined();
             MemoryRegion mr = pd.register(arena.allocate(4096), Access.ALL_REMOTE);
             PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq).build();
             WorkCompletions wc = new WorkCompletions(1)) {
            try (QueuePair qp = CmHandshake.connect(id, prepared, CmConnectionParameters.defaults(),
                            Completions.TIMEOUT).queuePair();
                 PreparedSend send = qp.prepareSend(1, 1)) {
                mr.memory().setString(0, "hello through rdma_cm", StandardCharsets.UTF_8);
                send.sge(0, 0, mr, 0, 22).flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
                Completions.awaitOne(cq, wc, "the send");
                System.out.println("sent");
                id.disconnect(Completions.TIMEOUT);
            }
        }
        // README:end
    }
}
