package dev.verbs4j.examples.quickstart;

import dev.verbs4j.verbs.Access;
import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.PreparedQueuePair;
import dev.verbs4j.verbs.PreparedSend;
import dev.verbs4j.verbs.ProtectionDomain;
import dev.verbs4j.verbs.QpType;
import dev.verbs4j.verbs.QueuePair;
import dev.verbs4j.verbs.QueuePairEndpoint;
import dev.verbs4j.verbs.RemoteRegion;
import dev.verbs4j.verbs.SendFlag;
import dev.verbs4j.verbs.SendOpcode;
import dev.verbs4j.verbs.Verbs;
import dev.verbs4j.verbs.WorkCompletions;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;

/**
 * Quick-start: RDMA atomics on a 64-bit counter in the server's memory. The client adds to it
 * (fetch-and-add) and then swaps it if it holds what the client expects (compare-and-swap); each
 * operation returns the counter's old value into the client's buffer.
 *
 * <pre>
 * ... dev.verbs4j.examples.quickstart.Atomics server 18517
 * ... dev.verbs4j.examples.quickstart.Atomics client SERVER 18517
 * </pre>
 */
public final class Atomics {
    private Atomics() {}

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
             MemoryRegion mr = pd.register(arena.allocate(64, 8), Access.ALL_REMOTE);  // atomics need 8-byte alignment
             PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq).remoteAccess(Access.ALL_REMOTE).build();
             WorkCompletions wc = new WorkCompletions(1)) {
            mr.memory().set(ValueLayout.JAVA_LONG, 0, 100);   // the server's counter starts at 100
            QueuePairEndpoint remote = peer.exchange(prepared.endpoint().withRegion(mr));
            try (QueuePair qp = prepared.connect(remote); PreparedSend send = qp.prepareSend(1, 1)) {
                if (peer.isServer(args)) {
                    peer.awaitSignal();
                    System.out.println("server counter: " + mr.memory().get(ValueLayout.JAVA_LONG, 0));
                    return;
                }
                // README:begin atomics
                RemoteRegion counter = remote.region();
                send.opcode(0, SendOpcode.ATOMIC_FETCH_AND_ADD).compareAdd(0, 5)   // counter += 5
                        .sge(0, 0, mr, 8, 8).remote(counter.address(), counter.rkey())
                        .flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
                Completions.awaitOne(cq, wc, "fetch-and-add");
                System.out.println("fetch-and-add saw " + mr.memory().get(ValueLayout.JAVA_LONG, 8));

                send.opcode(0, SendOpcode.ATOMIC_CMP_AND_SWP).compareAdd(0, 105).swap(0, 7).post(); // 105 -> 7
                Completions.awaitOne(cq, wc, "compare-and-swap");
                System.out.println("compare-and-swap saw " + mr.memory().get(ValueLayout.JAVA_LONG, 8));
                // README:end
                peer.signal();
            }
        }
    }
}
