package dev.verbs4j.guest;

/** What kind of failure a {@link ChannelException} reports; the same kinds on RDMA and TCP. */
public enum ChannelError {
    /** The peer refused a one-sided access: unknown key, or outside the region (IBV_WC_REM_ACCESS_ERR). */
    REMOTE_ACCESS,
    /** A message or local buffer range is too large or out of bounds (IBV_WC_LOC_LEN_ERR). */
    LOCAL_LENGTH,
    /** The peer closed the channel in order. */
    PEER_CLOSED,
    /** The peer vanished or the connection broke (process killed, retries exhausted, reset). */
    PEER_LOST,
    /** This side closed the channel. */
    CLOSED,
    /** The send queue stayed full for longer than the send timeout. */
    SEND_QUEUE_FULL,
    /**
     * This channel's path cannot carry the operation: immediate data or one-sided operations over a
     * device that does not deliver them (see {@link Channel#transport()}'s reason). Nothing was sent.
     */
    UNSUPPORTED,
    /** Setting the channel up failed. */
    CONNECT_FAILED,
    /** Any other transport failure. */
    TRANSPORT
}
