package dev.verbs4j.guest.tcp;

/**
 * Tells a one-way stream of incoming frames from traffic that gets answers, for a TCP channel
 * whose loop reads the socket in EVENT mode.
 *
 * <p>A loop asleep in epoll_wait is woken by the sender's kernel for each segment that arrives,
 * and the wake-up is paid on the sender's CPU: on loopback, with TCP_NODELAY and 4 KiB messages,
 * it was the sender's largest cost beside the copy, and a loop that reads quickly sleeps (and is
 * woken) more often than a slower reader would. So once the loop's reads follow each other
 * closely, with nothing sent from this end in between, the socket leaves the epoll set and the
 * loop reads it on a timer instead, at the stream's own pace, as a network card's interrupt
 * moderation does ({@link #nextLook}), until nothing came for {@link #GAP_NANOS}. A channel
 * that answers what it receives never gets here: its round trips keep their latency. Nor does a
 * process that runs on one CPU, where the wake-up crosses to no other CPU and costs little:
 * there the timer made the stream wait (4 KiB with TCP_NODELAY went from 1.28 to 0.75 × plain
 * NIO on the host, under {@code taskset -c 0}).
 *
 * <p>Loop thread only.
 */
final class ReceiveStream {
    /** Reads in a row, each close behind the one before, before the socket is polled. */
    static final int STREAK = 4;
    /**
     * The longest gap between two reads of one stream, and the longest a polled stream may bring
     * nothing before the socket rejoins the set. In an emulated guest a 4 KiB message arrived
     * every 150-200 µs, so a bound of 100 µs seldom let its stream be polled.
     */
    static final long GAP_NANOS = 1_000_000;
    /** The shortest time between looks: a few 4 KiB messages' worth of a host's loopback. */
    static final long POLL_NANOS = 50_000;
    /** The longest time between looks, reached only while looks find nothing. */
    static final long MAX_POLL_NANOS = 500_000;
    /**
     * A look that read this much came late for the stream's pace: the next comes after
     * {@link #POLL_NANOS}. A host's 4 KiB stream brings this much every 50 µs, so it is polled at
     * that pace throughout; a socket left longer fills, and its sender waits.
     */
    static final long LATE_LOOK_BYTES = 32 * 1024;
    /** Whether this process may run on more than one CPU (its affinity and quota, as the JVM reads them). */
    static final boolean SEVERAL_CPUS = Runtime.getRuntime().availableProcessors() > 1;

    private int streak;
    private long streakStart;
    private long lastRead;
    private long sentAtLastRead = -1;
    private long pollNanos = POLL_NANOS;

    /**
     * Counts a read by the loop that brought bytes, and says whether the socket now carries a
     * stream to poll; if so, the first look is due after {@link #pollNanos()}: the stream's own
     * pace so far, within {@link #POLL_NANOS} and {@link #MAX_POLL_NANOS}.
     *
     * @param sent how many frames this end has sent or queued so far
     * @param now {@link System#nanoTime()}
     */
    boolean streams(long sent, long now) {
        boolean follows = sent == sentAtLastRead && now - lastRead < GAP_NANOS;
        if (follows) {
            streak = Math.min(streak + 1, STREAK);
        } else {
            streak = 0;
            streakStart = now;
        }
        sentAtLastRead = sent;
        lastRead = now;
        if (streak < STREAK) {
            return false;
        }
        pollNanos = Math.clamp((now - streakStart) / STREAK, POLL_NANOS, MAX_POLL_NANOS);
        return true;
    }

    /**
     * Counts a look of the polling timer and says when the next is due, or -1 when the stream
     * ended: this end sent something (it is no longer one way), or nothing came for
     * {@link #GAP_NANOS}. A look that found nothing makes the wait for the next a quarter longer
     * (not more: a sender that only paused would find the socket full), one that brought bytes
     * a quarter shorter, or {@link #POLL_NANOS} when it read {@link #LATE_LOOK_BYTES} or more.
     * So the wait follows the stream's pace where messages come slower than every
     * {@link #POLL_NANOS}, and after the stream stops the socket rejoins the set after a few
     * looks.
     *
     * @param bytes what the look read (0: nothing)
     * @param sent how many frames this end has sent or queued so far
     * @param now {@link System#nanoTime()}
     */
    long nextLook(long bytes, long sent, long now) {
        if (sent != sentAtLastRead || bytes == 0 && now - lastRead >= GAP_NANOS) {
            reset();
            return -1;
        }
        if (bytes == 0) {
            pollNanos = Math.min(pollNanos + pollNanos / 4, MAX_POLL_NANOS);
        } else {
            lastRead = now;
            pollNanos = bytes >= LATE_LOOK_BYTES ? POLL_NANOS : Math.max(POLL_NANOS, pollNanos - pollNanos / 4);
        }
        return pollNanos;
    }

    /** The time to the next look, as {@link #streams} or {@link #nextLook} last set it. */
    long pollNanos() {
        return pollNanos;
    }

    /** The stream ended (the socket rejoined the set): the next read starts a new count. */
    void reset() {
        streak = 0;
        sentAtLastRead = -1; // no count of frames sent is -1: the next read does not follow
    }
}
