package dev.verbs4j.guest.transport;

/**
 * Tells a one-way stream of incoming frames from traffic that gets answers, for a TCP channel
 * whose loop reads the socket in EVENT mode.
 *
 * <p>A loop asleep in epoll_wait is woken by the sender's kernel for each segment that arrives,
 * and the wake-up is paid on the sender's CPU: on loopback, with TCP_NODELAY and 4 KiB messages,
 * it was the sender's largest cost beside the copy, and a loop that reads quickly sleeps (and is
 * woken) more often than a slower reader would. So once the loop's reads follow each other
 * closely, with nothing sent from this end in between, the socket leaves the epoll set and the
 * loop reads it every {@link #POLL_NANOS} instead, as a network card's interrupt moderation
 * does, until a look finds nothing. A channel that answers what it receives never gets here:
 * its round trips keep their latency. Nor does a process that runs on one CPU, where the wake-up
 * crosses to no other CPU and costs little: there the timer made the stream wait (4 KiB with
 * TCP_NODELAY went from 1.28 to 0.75 × plain NIO on the host, under {@code taskset -c 0}).
 *
 * <p>Loop thread only.
 */
final class ReceiveStream {
    /** Reads in a row, each close behind the one before, before the socket is polled. */
    static final int STREAK = 4;
    /** The longest gap between two reads of one stream. */
    static final long GAP_NANOS = 100_000;
    /** How often a streaming socket is read: a few 4 KiB messages' worth of a host's loopback. */
    static final long POLL_NANOS = 50_000;
    /** Whether this process may run on more than one CPU (its affinity and quota, as the JVM reads them). */
    static final boolean SEVERAL_CPUS = Runtime.getRuntime().availableProcessors() > 1;

    private int streak;
    private long lastRead;
    private long sentAtLastRead = -1;

    /**
     * Counts a read by the loop that brought bytes, and says whether the socket now carries a
     * stream to poll.
     *
     * @param sent how many frames this end has sent or queued so far
     * @param now {@link System#nanoTime()}
     */
    boolean streams(long sent, long now) {
        boolean follows = sent == sentAtLastRead && now - lastRead < GAP_NANOS;
        streak = follows ? Math.min(streak + 1, STREAK) : 0;
        sentAtLastRead = sent;
        lastRead = now;
        return streak == STREAK;
    }

    /** Whether a poll that read bytes keeps the stream going: nothing was sent since the last read. */
    boolean continues(long sent, long now) {
        if (sent != sentAtLastRead) {
            reset();
            return false;
        }
        lastRead = now;
        return true;
    }

    /** The stream ended (a look found nothing, or this end answered): the next read starts a new count. */
    void reset() {
        streak = 0;
        sentAtLastRead = -1; // no count of frames sent is -1: the next read does not follow
    }
}
