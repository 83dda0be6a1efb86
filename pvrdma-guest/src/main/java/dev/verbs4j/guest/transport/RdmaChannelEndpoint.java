package dev.verbs4j.guest.transport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * What each side of an RDMA channel tells the other to connect its RC queue pair: QP number,
 * first PSN, GID (RoCE addresses by GID), LID (InfiniBand) and the port's active MTU.
 */
record RdmaChannelEndpoint(int qpNumber, int psn, byte[] gid, int lid, int activeMtu) {

    void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(qpNumber);
        out.writeInt(psn);
        out.write(gid);
        out.writeShort(lid);
        out.writeByte(activeMtu);
    }

    static RdmaChannelEndpoint readFrom(DataInputStream in) throws IOException {
        int qpn = in.readInt();
        int psn = in.readInt();
        byte[] gid = new byte[16];
        in.readFully(gid);
        return new RdmaChannelEndpoint(qpn, psn, gid, in.readUnsignedShort(), in.readUnsignedByte());
    }
}
