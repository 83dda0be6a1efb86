package dev.verbs4j.nvmf.connect;

import dev.verbs4j.nvmf.queue.NvmfQueue;
import dev.verbs4j.nvmf.types.NvmfException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.nvmf.wire.Fabrics;
import dev.verbs4j.nvmf.wire.RdmaCmData;
import dev.verbs4j.nvmf.wire.Sgl;
import dev.verbs4j.nvmf.wire.Sqe;
import dev.verbs4j.nvmf.wire.StatusDecoder;
import dev.verbs4j.verbs.CmConnectionParameters;
import dev.verbs4j.verbs.CmEventChannel;
import dev.verbs4j.verbs.CmEventType;
import dev.verbs4j.verbs.CmException;
import dev.verbs4j.verbs.CmId;
import dev.verbs4j.verbs.CmPortSpace;
import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.MemoryRegion;
import dev.verbs4j.verbs.ProtectionDomain;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.UUID;

/**
 * Brings one queue up: rdma_cm address and route resolution, the QP, rdma_connect with the RDMA
 * transport's private data, then the Fabrics Connect command. Every wait has the deadline given;
 * REJECTED, UNREACHABLE, ADDR_ERROR, ROUTE_ERROR and CONNECT_ERROR fail it with the reason.
 */
public final class QueueConnector {
    /** RDMA reads the target may have outstanding against this host (it reads the data of writes). */
    private static final int RESPONDER_RESOURCES = 16;

    private final CmEventChannel channel;
    private final InetSocketAddress source;
    private final InetSocketAddress target;
    private final Duration timeout;

    /** {@code source}: the local address to connect from (any port), null for the one the route picks. */
    public QueueConnector(CmEventChannel channel, InetAddress source, InetSocketAddress target, Duration timeout) {
        this.channel = channel;
        this.source = source == null ? null : new InetSocketAddress(source, 0);
        this.target = target;
        this.timeout = timeout;
    }

    /** The parts of a connected queue the caller needs to go on. */
    public record Connected(NvmfQueue queue, ProtectionDomain pd, int controllerId) {
    }

    /** What a queue takes from its controller. */
    public interface QueueResources {
        /** The protection domain on the id's device: the admin queue allocates it, the I/O queues reuse it. */
        ProtectionDomain protectionDomain(CmId id);

        /** A registered buffer of at least 1 KiB the target reads the Connect data from. */
        MemoryRegion connectData();

        /**
         * Where the I/O queues' CQs signal completions (the progress thread sleeps on it); null
         * for none. Asked after {@link #protectionDomain}, on the same device.
         */
        CompletionChannel ioCompletionEvents();
    }

    /** Connects queue {@code qid} with {@code queueSize} entries. */
    public Connected connect(int qid, int queueSize, QueueResources resources, UUID hostId, String hostNqn,
                             String subsystemNqn, int controllerId, int keepAliveMillis) {
        CmId id = channel.createId(CmPortSpace.TCP);
        NvmfQueue queue = null;
        try {
            id.resolveAddress(source, target, timeout);
            id.resolveRoute(timeout);
            ProtectionDomain pd = resources.protectionDomain(id);
            queue = new NvmfQueue(id, pd, qid, queueSize, qid == 0 ? null : resources.ioCompletionEvents());
            rdmaConnect(id, qid, queueSize);
            int cntlid = fabricsConnect(queue, resources.connectData(), hostId, hostNqn, subsystemNqn, controllerId,
                    keepAliveMillis);
            return new Connected(queue, pd, cntlid);
        } catch (RuntimeException e) {
            if (queue != null) {
                queue.close(timeout);
            } else {
                id.close();
            }
            if (e instanceof CmException cm) {
                throw cmFailure(qid, cm);
            }
            if (e instanceof NvmfException) {
                throw e;
            }
            throw new NvmfTransportException("queue " + qid + " to " + target.getAddress().getHostAddress() + ":"
                    + target.getPort() + ": " + e.getMessage(), e);
        }
    }

    private void rdmaConnect(CmId id, int qid, int queueSize) {
        CmConnectionParameters params = CmConnectionParameters.defaults()
                .withPrivateData(RdmaCmData.request(qid, queueSize))
                .withRdmaReads(RESPONDER_RESOURCES, 0)
                .withFlowControl(true);
        id.connect(params, timeout);
    }

    private NvmfException cmFailure(int qid, CmException e) {
        String where = "queue " + qid + " to " + target.getAddress().getHostAddress() + ":" + target.getPort();
        if (e.timedOut()) {
            return new NvmfTransportException(where + ": " + e.getMessage(), e);
        }
        if (e.actual().type() == CmEventType.REJECTED) {
            int sts = RdmaCmData.rejectStatus(e.actual().privateData());
            return new NvmfTransportException(where + ": the target rejected the RDMA connection"
                    + (sts < 0 ? " (no NVMe-oF listener on that port?)" : ": " + RdmaCmData.describeReject(sts)), e);
        }
        return new NvmfTransportException(where + ": " + e.getMessage(), e);
    }

    private int fabricsConnect(NvmfQueue queue, MemoryRegion data, UUID hostId, String hostNqn, String subsystemNqn,
                               int controllerId, int keepAliveMillis) {
        Fabrics.connectData(data.memory(), 0, hostId, controllerId, subsystemNqn, hostNqn);
        int slot = queue.acquire();
        long sqe = queue.sqeOffset(slot);
        Fabrics.connect(queue.sqes(), sqe, slot, queue.qid(), queue.queueSize(), keepAliveMillis);
        Sgl.keyed(queue.sqes(), sqe + Sqe.DPTR, data.address(), Fabrics.CONNECT_DATA_SIZE, data.rkey());
        queue.submit(slot, null, 0, 0, null, 0);
        queue.await(slot, System.nanoTime() + timeout.toNanos(), "Connect");
        int status = queue.status(slot);
        long result = queue.result(slot);
        queue.release(slot);
        if (status != 0) {
            throw StatusDecoder.exception("Connect (queue " + queue.qid() + ", " + subsystemNqn + ")", status, result,
                    true);
        }
        return (int) (result & 0xFFFF);
    }
}
