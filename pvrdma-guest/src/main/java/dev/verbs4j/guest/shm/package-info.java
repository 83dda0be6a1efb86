/**
 * The shared-memory channel between two processes on one kernel: {@link
 * dev.verbs4j.guest.shm.ShmChannel} and its parts, each with one job. Not exported from the
 * module.
 *
 * <ul>
 * <li>{@code ShmSegment}: the memfd (sealed against resizing), the unix socket kept as the sign
 *     of life, the two eventfds; how the creator hands them over and the attacher checks them;
 * <li>{@code ShmLayout} and {@code ShmRecord}: where the rings and their control words sit, and
 *     what a record is (a header whose first word commits it);
 * <li>{@code RingWriter} and {@code RingReader}: the two ends of a ring; the reader checks
 *     every length and type before it reads a body, the writer every position the peer
 *     publishes: the segment is untrusted input;
 * <li>{@code SendsInFlight}: the messages the peer has not taken yet, whose credits come back
 *     when it does;
 * <li>{@code ShmOneSided}: RDMA-style writes and reads, served by the peer's loop.
 * </ul>
 *
 * <p>One lock, the channel's producer lock, held by whoever writes to the outgoing ring and
 * around releasing the segment; the incoming ring is read in the loop's passes only. Futures
 * are completed, listeners called and the channel ended after the lock is let go.
 */
package dev.verbs4j.guest.shm;
