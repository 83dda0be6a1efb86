package dev.verbs4j.examples.quickstart;

import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.AddressHandle;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PreparedQueuePair;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.QueuePairEndpoint;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.Verbs;
import dev.verbs4j.verbs.WorkCompletions;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;

/**
 * Quick-start: unreliable datagrams (UD). No connection: the QP is activated on its own, and each
 * send names its destination with an address handle (built from the peer's GID), the peer's QP
 * number and its Q_Key. Every received datagram starts with a 40-byte global route header.
 *
 * <pre>
 * ... dev.verbs4j.examples.quickstart.UdDatagram server 18518
 * ... dev.verbs4j.examples.quickstart.UdDatagram client SERVER 18518
 * </pre>
 */
public final class UdDatagram {
    private UdDatagram() {}

    /**
     * Runs one side.
     *
     * @param args the command line shown in the class comment
     * @throws Exception when a verb, the socket or a wait fails: the program ends with the cause
     */
    public static void main(String[] args) throws Exception {
        try (Peer peer = Peer.fromArgs(args);
             Context ctx = Verbs.openFirst().orElseThrow();
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CompletionQueue cq = ctx.createCompletionQueue(16);
             Arena arena = Arena.ofConfined();
             MemoryRegion mr = pd.register(arena.allocate(4096), Access.ALL_REMOTE);
             PreparedQueuePair prepared = pd.queuePairBuilder(QpType.UD, cq).build();
             WorkCompletions wc = new WorkCompletions(1)) {
            QueuePairEndpoint remote = peer.exchange(prepared.endpoint());
            // README:begin ud
            try (QueuePair qp = prepared.activate();                          // RESET -> RTS, no peer
                 AddressHandle toPeer = prepared.addressHandleTo(remote);     // the route to the peer's GID
                 PreparedReceive receive = qp.prepareReceive(1, 1);
                 PreparedSend send = qp.prepareSend(1, 1)) {
                if (peer.isServer(args)) {
                    receive.sge(0, 0, mr, 0, AddressHandle.GRH_BYTES + 1024).post();
                    peer.signal();
                    Completions.awaitOne(cq, wc, "the datagram");
                    String text = mr.memory().getString(AddressHandle.GRH_BYTES, StandardCharsets.UTF_8);
                    System.out.println("received datagram: " + text);
                } else {
                    mr.memory().setString(0, "one datagram", StandardCharsets.UTF_8);
                    peer.awaitSignal();
                    send.ud(0, toPeer, remote.qpNumber(), remote.qkey()).sge(0, 0, mr, 0, 13)
                            .flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
                    Completions.awaitOne(cq, wc, "the datagram send");
                    System.out.println("sent datagram");
                }
            }
            // README:end
        }
    }
}
