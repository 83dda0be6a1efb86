package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.TransportPreference;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** What each side states first on the bootstrap socket: its preference, message size and capabilities. */
record BootstrapHello(TransportPreference preference, int maxMessageSize, Capabilities capabilities) {
    private static final int MAGIC = 0x56344A43; // "V4JC"
    private static final int VERSION = 2; // 2: QP endpoints as QueuePairEndpoint's 64 bytes

    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        out.writeUTF(preference.name());
        out.writeInt(maxMessageSize);
        capabilities.writeTo(out);
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
        TransportPreference preference = TransportPreference.valueOf(in.readUTF());
        int maxMessageSize = in.readInt();
        return new BootstrapHello(preference, maxMessageSize, Capabilities.readFrom(in));
    }
}
