package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.SameHostFacts;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UTFDataFormatException;

/**
 * What each side states first on the bootstrap socket: its preference, message size and send
 * queue depth, its RDMA capabilities, and the facts that say whether shared memory could join
 * the two processes. Whatever the peer states is checked before this side acts on it: a
 * statement that is not one of ours, or a message size that would make this side reserve memory
 * for a length the peer made up, is refused as an {@link IOException} that says so.
 */
record BootstrapHello(TransportPreference preference, int maxMessageSize, int sendQueueDepth,
                      Capabilities capabilities, SameHostFacts host) {
    private static final int MAGIC = 0x56344A43; // "V4JC"
    private static final int VERSION = 5; // 2: QP endpoints as QueuePairEndpoint's 64 bytes; 3: depth and same-host facts; 4: shm by AUTO, its set-up in step; 5: how each RDMA probe arrived, READ depths

    /**
     * The largest message size a peer may raise the channel's to (the channel takes the larger
     * of both sides'): a peer asking for more is refused unless this side asked for as much
     * itself. Each channel reserves buffers by this size, so a peer must not choose it freely.
     */
    static final int PEER_MAX_MESSAGE_LIMIT = 16 << 20;

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
        try {
            TransportPreference preference = preference(in.readUTF());
            int maxMessageSize = in.readInt();
            if (maxMessageSize < 1) {
                throw new IOException("the peer states a maximum message size of " + maxMessageSize + " bytes");
            }
            int depth = in.readInt();
            if (depth < 1 || depth > 1 << 20) {
                throw new IOException("the peer states a send queue depth of " + depth);
            }
            Capabilities capabilities = Capabilities.readFrom(in);
            SameHostFacts host = new SameHostFacts(in.readUTF(), in.readUTF(), in.readInt(), in.readLong());
            return new BootstrapHello(preference, maxMessageSize, depth, capabilities, host);
        } catch (UTFDataFormatException e) {
            throw new IOException("the peer's bootstrap statement holds a malformed string (" + e.getMessage() + ")", e);
        }
    }

    /**
     * The message size both sides use, the larger of both statements, once this side accepts it.
     *
     * @throws IOException when the peer asks for more than {@link #PEER_MAX_MESSAGE_LIMIT} and more than this side
     */
    static int agreedMaxMessageSize(BootstrapHello mine, BootstrapHello theirs) throws IOException {
        int asked = theirs.maxMessageSize();
        if (asked > mine.maxMessageSize() && asked > PEER_MAX_MESSAGE_LIMIT) {
            throw new IOException("the peer states a maximum message size of " + asked + " bytes, over the "
                    + PEER_MAX_MESSAGE_LIMIT + " a peer may ask for (this side's maximum is "
                    + mine.maxMessageSize() + "; configure as much here to accept it)");
        }
        return Math.max(mine.maxMessageSize(), asked);
    }

    private static TransportPreference preference(String name) throws IOException {
        for (TransportPreference p : TransportPreference.values()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IOException("the peer states an unknown transport preference \"" + PeerText.printable(name, 40) + "\"");
    }
}
