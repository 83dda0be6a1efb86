package dev.verbs4j.verbs;

import java.util.EnumSet;
import java.util.Set;

/**
 * Attributes of the RESET → INIT transition, for {@link QueuePair#toInit}. Connected QPs (RC, UC)
 * take the remote access they allow; UD QPs take a Q_Key instead. Checked against the QP type by
 * {@link QueuePair#toInit}. Immutable and safe to share.
 */
public final class InitAttributes {
    private final int port;
    private final int pkeyIndex;
    private final Set<Access> remoteAccess;
    private final Integer qkey;

    private InitAttributes(int port, int pkeyIndex, Set<Access> remoteAccess, Integer qkey) {
        this.port = AddressVector.range("port", port, 1, 255);
        this.pkeyIndex = AddressVector.range("P_Key index", pkeyIndex, 0, 0xFFFF);
        this.remoteAccess = remoteAccess.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(remoteAccess));
        this.qkey = qkey;
    }

    /**
     * For RC and UC: what the peer may do to our memory through this QP.
     *
     * @param port         the local port, 1..255
     * @param remoteAccess REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC (RC only for the last two); may
     *                     be empty
     * @return the attributes, with P_Key index 0
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public static InitAttributes connected(int port, Set<Access> remoteAccess) {
        return new InitAttributes(port, 0, remoteAccess, null);
    }

    /**
     * For UD: the Q_Key that incoming datagrams must carry.
     *
     * @param port the local port, 1..255
     * @param qkey the Q_Key
     * @return the attributes, with P_Key index 0
     * @throws IllegalArgumentException if {@code port} is out of range
     */
    public static InitAttributes datagram(int port, int qkey) {
        return new InitAttributes(port, 0, Set.of(), qkey);
    }

    /**
     * A copy with another P_Key table index.
     *
     * @param index 0..0xFFFF
     * @return the copy
     * @throws IllegalArgumentException if {@code index} is out of range
     */
    public InitAttributes withPkeyIndex(int index) {
        return new InitAttributes(port, index, remoteAccess, qkey);
    }

    /**
     * The local port.
     *
     * @return the port number, from 1
     */
    public int port() {
        return port;
    }

    /**
     * The P_Key table index.
     *
     * @return 0 unless set with {@link #withPkeyIndex(int)}
     */
    public int pkeyIndex() {
        return pkeyIndex;
    }

    /**
     * The remote access the QP allows (RC/UC).
     *
     * @return an immutable set, empty for UD
     */
    public Set<Access> remoteAccess() {
        return remoteAccess;
    }

    /**
     * The Q_Key, or null when none was given.
     *
     * @return the Q_Key (UD), or null
     */
    public Integer qkey() {
        return qkey;
    }
}
