package dev.verbs4j.guest.tcp;

/**
 * Tells a stream of small sends from single ones, for the TCP channel.
 *
 * <p>With TCP_NODELAY, each write that a keeping-up peer leaves room for goes out as its own
 * segment, and a segment costs far more than a small message's bytes: written one by one, a
 * stream of 64 B messages moves a third of what the same bytes move in a few large writes. So
 * once a thread sends small frames back to back, with nothing arriving in between, they are
 * queued instead, and the loop writes what queued up with one writev. This is how a blocking
 * socket's writes pile up while its reader lags, without anyone waiting for an acknowledgement as
 * Nagle does: the loop writes as soon as it runs. A send after a pause, or after the peer
 * answered, goes straight out as before, so round trips keep their latency.
 *
 * <p>Not thread-safe: the channel calls it under its write lock.
 */
final class SendStreak {
    /** Sends in a row before they are batched: a request of a few frames still goes straight out. */
    static final int STREAK = 4;
    /**
     * The longest pause, from the end of one send to the next, within one stream. Long enough
     * for a sender that waited for a free slot in the send queue to count as streaming, and for
     * one whose CPU ran the reader in between: in an emulated guest on one CPU, a 64 B message
     * written straight out took about 300 µs to send and read, and with a 200 µs bound most
     * passes of a TCP_NODELAY stream never batched (0.2-0.5 MB/s, plain NIO 0.3-0.5; the passes
     * that did batch moved 2.0-2.6).
     */
    static final long PAUSE_NANOS = 1_000_000;
    /**
     * Frames from this size on go straight out: one nearly fills an Ethernet segment on its own.
     * Batched, 4 KiB messages streamed 2.7 times faster on a host's loopback but half as fast in
     * an emulated guest, where the extra copy and the hand-over to the loop cost more.
     */
    static final long SMALL_BELOW = 1024;

    private int streak;
    private long lastSendEnd;
    private long readsAtLastSend = -1;

    /**
     * Counts a frame about to be sent and says whether the loop should write it in a batch.
     *
     * @param frameLength the frame's header and payload bytes
     * @param reads how many reads of the socket have brought bytes so far
     * @param now {@link System#nanoTime()}
     */
    boolean batches(long frameLength, long reads, long now) {
        boolean follows = reads == readsAtLastSend && now - lastSendEnd < PAUSE_NANOS;
        streak = follows ? Math.min(streak + 1, STREAK) : 0;
        readsAtLastSend = reads;
        lastSendEnd = now;
        return streak == STREAK && frameLength < SMALL_BELOW;
    }

    /** The frame just counted went out now ({@link System#nanoTime()}): the pause runs from here. */
    void sentAt(long now) {
        lastSendEnd = now;
    }
}
