package dev.verbs4j.verbs;

import java.util.EnumSet;
import java.util.Set;

/**
 * Attributes of the RESET → INIT transition. Connected QPs (RC, UC) take the remote access they
 * allow; UD QPs take a Q_Key instead. Checked against the QP type by {@link QueuePair#toInit}.
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

    /** For RC and UC: what the peer may do to our memory through this QP. */
    public static InitAttributes connected(int port, Set<Access> remoteAccess) {
        return new InitAttributes(port, 0, remoteAccess, null);
    }

    /** For UD: the Q_Key that incoming datagrams must carry. */
    public static InitAttributes datagram(int port, int qkey) {
        return new InitAttributes(port, 0, Set.of(), qkey);
    }

    public InitAttributes withPkeyIndex(int index) {
        return new InitAttributes(port, index, remoteAccess, qkey);
    }

    public int port() {
        return port;
    }

    public int pkeyIndex() {
        return pkeyIndex;
    }

    public Set<Access> remoteAccess() {
        return remoteAccess;
    }

    /** The Q_Key, or null when none was given. */
    public Integer qkey() {
        return qkey;
    }
}
