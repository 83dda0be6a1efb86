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
import java.nio.charset.StandardCharsets;

/**
 * Quick-start: one-sided RDMA. The server announces a memory region (address, rkey, length) with
 * its endpoint and does nothing else; the client writes into that region and reads it back,
 * without the server's CPU taking part.
 *
 * <pre>
 * ... dev.verbs4j.examples.quickstart.RdmaWriteRead server 18516
 * ... dev.verbs4j.examples.quickstart.RdmaWriteRead client SERVER 18516
 * </pre>
 */
public final class RdmaWriteRead {
    private RdmaWriteRead() {}

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
             // the peer may write and read our memory through this QP
             PreparedQueuePair prepared = pd.queuePairBuilder(QpType.RC, cq).remoteAccess(Access.ALL_REMOTE).build();
             WorkCompletions wc = new WorkCompletions(1)) {
            // Each side announces its region with its endpoint.
            QueuePairEndpoint remote = peer.exchange(prepared.endpoint().withRegion(mr));
            try (QueuePair qp = prepared.connect(remote); PreparedSend send = qp.prepareSend(1, 1)) {
                if (peer.isServer(args)) {
                    peer.awaitSignal();   // the client is done with our memory
                    System.out.println("server memory now holds: " + mr.memory().getString(0, StandardCharsets.UTF_8));
                    return;
                }
                // README:begin rdma-write-read
                RemoteRegion target = remote.region();   // the server's address, rkey and length
                mr.memory().setString(0, "written by RDMA", StandardCharsets.UTF_8);
                send.opcode(0, SendOpcode.RDMA_WRITE).sge(0, 0, mr, 0, 16)
                        .remote(target.address(), target.rkey()).flags(0, SendFlag.mask(SendFlag.SIGNALED)).post();
                Completions.awaitOne(cq, wc, "the RDMA write");

                // Read the same 16 bytes back into the second half of our buffer.
                send.opcode(0, SendOpcode.RDMA_READ).sge(0, 0, mr, 2048, 16).post();
                Completions.awaitOne(cq, wc, "the RDMA read");
                System.out.println("read back: " + mr.memory().getString(2048, StandardCharsets.UTF_8));
                // README:end
                peer.signal();
            }
        }
    }
}
