package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.rdma.ProbeArrival;
import dev.verbs4j.guest.rdma.RdmaChannel;
import dev.verbs4j.verbs.QueuePairEndpoint;
import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.loop.CompletionLoop;
import java.io.IOException;
import dev.verbs4j.unix.NativeSocket;

/**
 * The RDMA half of the bootstrap exchange. Each step ends with both sides telling each other how
 * it went, so both agree whether to go on, and on a failure both fall back to TCP over the same
 * socket, still in step:
 * <ol>
 *   <li>create PD, CQ, buffers and QP, post the receives; exchange endpoints ({@link QueuePairEndpoint}'s
 *   64 bytes: QPN, PSN, GID, MTU)</li>
 *   <li>connect the QP (RTR, RTS); exchange the outcome</li>
 *   <li>probe: one SEND with immediate data each way within the RDMA connect timeout; exchange the
 *   outcome, then how each probe arrived and each side's RDMA READ depth: a device that drops or
 *   alters immediate data or takes no READ (QEMU's emulated PVRDMA) leaves the channel on RDMA,
 *   refusing what would arrive altered or fail</li>
 * </ol>
 */
final class RdmaHandshake {
    private RdmaHandshake() {}

    static Channel connect(NativeSocket socket, BootstrapStreams streams, TransportChoice choice, Capabilities local,
                           int maxMessageSize, ChannelConfig config, CompletionLoop loop, boolean ownsLoop)
            throws IOException, RdmaChannelFallback {
        RdmaChannel channel = null;
        String failure = null;
        try {
            channel = RdmaChannel.create(socket, choice, local.port(), maxMessageSize, config, loop, ownsLoop);
        } catch (RuntimeException e) {
            failure = "cannot set up RDMA resources: " + e.getMessage();
        }
        try {
            return connectAndProbe(channel, failure, streams, config);
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                channel.abandon(); // the peer went away or a verb failed mid-exchange: nothing may stay behind
            }
            throw e;
        }
    }

    private static Channel connectAndProbe(RdmaChannel channel, String setupFailure, BootstrapStreams streams,
                                           ChannelConfig config) throws IOException, RdmaChannelFallback {
        String failure = setupFailure;
        QueuePairEndpoint mine = channel == null ? null : channel.endpoint();
        String why = failure;
        streams.send(out -> {
            out.writeBoolean(mine != null);
            if (mine != null) {
                out.write(mine.toBytes());
            } else {
                out.writeUTF(why);
            }
        });
        QueuePairEndpoint peer = null;
        String peerFailure = null;
        if (streams.in.readBoolean()) {
            byte[] endpoint = new byte[QueuePairEndpoint.BYTES];
            streams.in.readFully(endpoint);
            peer = QueuePairEndpoint.fromBytes(endpoint);
        } else {
            peerFailure = PeerText.printable(streams.in.readUTF(), BootstrapStreams.REASON_MAX);
        }
        giveUpIf(channel, failure, peerFailure);

        try {
            channel.connectTo(peer);
        } catch (RuntimeException e) {
            failure = "cannot connect the queue pair: " + e.getMessage();
        }
        streams.sendOutcome(failure);
        giveUpIf(channel, failure, streams.readOutcome());

        failure = channel.probe(config.rdmaConnectTimeout());
        streams.sendOutcome(failure);
        giveUpIf(channel, failure, streams.readOutcome());

        ProbeArrival theirs = channel.peerProbe();
        int reads = Math.min(255, channel.readsInFlight());
        streams.send(out -> {
            out.writeByte(theirs.code());
            out.writeByte(reads);
        });
        ProbeArrival ours;
        try {
            ours = ProbeArrival.ofCode(streams.in.readUnsignedByte());
        } catch (IllegalArgumentException e) {
            throw new IOException("the peer sent an " + e.getMessage());
        }
        channel.limitTo(ours, streams.in.readUnsignedByte());
        channel.attach();
        return channel;
    }

    private static void giveUpIf(RdmaChannel channel, String here, String atPeer) throws RdmaChannelFallback {
        if (here == null && atPeer == null) {
            return;
        }
        if (channel != null) {
            channel.abandon();
        }
        throw new RdmaChannelFallback(here != null ? here : "peer: " + atPeer);
    }
}
