package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.SameHostFacts;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * What each side states first on the bootstrap socket: its preference, message size and send
 * queue depth, its RDMA capabilities, and the facts that say whether shared memory could join
 * the two processes.
 */
record BootstrapHello(TransportPreference preference, int maxMessageSize, int sendQueueDepth,
                      Capabilities capabilities, SameHostFacts host) {
    private static final int MAGIC = 0x56344A43; // "V4JC"
    private static final int VERSION = 3; // 2: QP endpoints as QueuePairEndpoint's 64 bytes; 3: depth and same-host facts

    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        out.writeUTF(preference.name());
        out.writeInt(maxMessageSize);
        out.writeInt(sendQueueDepth);
        capabilities.writeTo(out);
        out.writeUTF(host.bootId());
        out.writeUTF(host.netns());
        out.writeInt(host.uid());
        out.writeLong(host.pid());
    }

    static BootstrapHello readFrom(DataInputStream in) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException(String.format("the peer is not a verbs4j channel (magic 0x%08x)", magic));
        }
        int version = in.readUnsignedShort();
        if (version != VERSION) {
            throw new IOException("the peer speaks bootstrap version " + version + ", this side " + VERSION);
        }
        TransportPreference preference;
        try {
            preference = TransportPreference.valueOf(in.readUTF());
        } catch (IllegalArgumentException e) {
            throw new IOException("the peer states an unknown transport preference", e);
        }
        int maxMessageSize = in.readInt();
        int depth = in.readInt();
        if (depth < 1 || depth > 1 << 20) {
            throw new IOException("the peer states a send queue depth of " + depth);
        }
        Capabilities capabilities = Capabilities.readFrom(in);
        SameHostFacts host = new SameHostFacts(in.readUTF(), in.readUTF(), in.readInt(), in.readLong());
        return new BootstrapHello(preference, maxMessageSize, depth, capabilities, host);
    }
}
