package dev.verbs4j.examples.quickstart;

import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PreparedQueuePair;
import dev.verbs4j.verbs.PreparedReceive;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.Verbs;
import dev.verbs4j.verbs.WorkCompletions;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;

/**
 * Quick-start: a reliable-connection (RC) send and receive between two processes, the whole path
 * from opening the device to closing it.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp CLASSPATH dev.verbs4j.examples.quickstart.RcSendReceive server 18515
 * java --enable-native-access=ALL-UNNAMED -cp CLASSPATH dev.verbs4j.examples.quickstart.RcSendReceive client SERVER 18515
 * </pre>
 */
public final class RcSendReceive {
    private RcSendReceive() {}

    /**
     * Runs one side.
     *
     * @param args the command line shown in the class comment
     * @throws Exception when a verb, the socket or a wait fails: the program ends with the cause
     */
    public static void main(String[] args) throws Exception {
        try (Peer peer = Peer.fromArgs(args)) {
            boolean server = peer.isServer(args);
            // README:begin rc-send-receive
            // Resources are closed in reverse order: the QP before the memory region, the
            // region before the arena that holds its memory, everything before the device.
            try (Context ctx = Verbs.openFirst().orElseThrow();
                 ProtectionDomain pd = ctx.allocateProtectionDomain();
                 CompletionQueue cq = ctx.createCompletionQueue(16);
                 Arena arena = Arena.ofConfined();
                 MemoryRegion mr = pd.register(arena.allocate(4096), Access.ALL_REMOTE);
                 PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq).build();
                 WorkCompletions wc = new WorkCompletions(1)) {
                // Swap QP number, PSN and GID with the peer over TCP, then connect: RESET -> RTS.
                try (QueuePair qp = prepared.connect(peer.exchange(prepared.endpoint()));
                     PreparedReceive receive = qp.prepareReceive(1, 1);
                     PreparedSend send = qp.prepareSend(1, 1)) {
                    if (server) {
                        receive.sge(0, 0, mr, 0, 4096).post();   // a receive must wait before the send comes
                        peer.signal();
                        Completions.awaitOne(cq, wc, "the receive");
                        String text = mr.memory().getString(0, StandardCharsets.UTF_8);
                        System.out.println("received " + wc.byteLength(0) + " bytes: " + text);
                    } else {
                        mr.memory().setString(0, "hello over RDMA", StandardCharsets.UTF_8); // 16 bytes with its NUL
                        peer.awaitSignal();
                        send.sge(0, 0, mr, 0, 16).flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
                        Completions.awaitOne(cq, wc, "the send");
                        System.out.println("sent");
                    }
                }
            }
            // README:end
        }
    }
}
