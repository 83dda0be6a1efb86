package dev.verbs4j.verbs;

/**
 * How many bytes of private data each CM message can carry. The limits come from the IB CM
 * messages underneath (REQ 92, REP 196, REJ 148, SIDR_REQ 216, SIDR_REP 136 bytes), less the
 * 36-byte header rdma_cm puts in front of a connect request on the IP-addressed port spaces.
 * Stateless; {@link CmId} checks these limits before it calls librdmacm.
 */
public final class CmPrivateData {
    /** The CM message the private data rides on. */
    public enum Message {
        /** The connect request (IB CM REQ, or SIDR_REQ on datagram port spaces). */
        CONNECT,
        /** The accept (IB CM REP, or SIDR_REP). */
        ACCEPT,
        /** The reject (IB CM REJ, or SIDR_REP with a failure status). */
        REJECT
    }

    private CmPrivateData() {}

    /**
     * The most bytes {@code message} carries on {@code portSpace}.
     *
     * @param portSpace the id's port space
     * @param message   the CM message
     * @return the limit in bytes, e.g. 56 for a connect on TCP
     */
    public static int limit(CmPortSpace portSpace, Message message) {
        return switch (message) {
            case CONNECT -> switch (portSpace) {
                case TCP -> 56;
                case UDP, IPOIB -> 180;
                case IB -> 92;
            };
            case ACCEPT -> portSpace.isDatagram() ? 136 : 196;
            case REJECT -> portSpace.isDatagram() ? 136 : 148;
        };
    }

    /** Throws IllegalArgumentException when {@code data} is longer than the message carries. */
    static void check(byte[] data, CmPortSpace portSpace, Message message) {
        int limit = limit(portSpace, message);
        if (data.length > limit) {
            throw new IllegalArgumentException(message + " on port space " + portSpace + " carries at most "
                    + limit + " bytes of private data, got " + data.length);
        }
    }
}
