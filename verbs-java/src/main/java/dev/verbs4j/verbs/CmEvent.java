package dev.verbs4j.verbs;

/**
 * One rdma_cm event, copied out of librdmacm's buffer and already acknowledged, so holding on to
 * it never blocks destroying its id.
 *
 * @param type       what happened
 * @param status     0 on success; for REJECTED the IB CM reject reason, for the other failures a
 *                   negative errno
 * @param id         the id the event concerns; for CONNECT_REQUEST a new id for the incoming
 *                   connection, to accept or reject, then close
 * @param listenId   for CONNECT_REQUEST, the listening id the request arrived on; else null
 * @param connection connection parameters on connected port spaces (TCP, IB), else null
 * @param datagram   datagram parameters on the UDP and IPoIB port spaces, else null
 */
public record CmEvent(CmEventType type, int status, CmId id, CmId listenId, CmConnectionParameters connection,
                      CmDatagramParameters datagram) {

    /**
     * The private data the peer sent with this event.
     *
     * @return a fresh copy (possibly zero-padded), or an empty array when the event carries none
     */
    public byte[] privateData() {
        if (connection != null) {
            return connection.privateData();
        }
        return datagram != null ? datagram.privateData() : new byte[0];
    }

    /**
     * The event type with its status in words.
     *
     * @return e.g. {@code ESTABLISHED}, {@code REJECTED (status 8: invalid service ID)}
     */
    public String describe() {
        return status == 0 ? type.name() : type.name() + " (" + CmStatus.describe(type, status) + ")";
    }

    @Override
    public String toString() {
        return "CmEvent[" + describe() + "]";
    }
}
