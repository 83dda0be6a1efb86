package dev.verbs4j.guest;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One direction of a checked message stream over a channel: message {@code seq} is
 * {@link SequencedMessage} {@code seq} (its number, a checksum, a size from its number: mixed up
 * to the maximum), every third with immediate data that follows from its number. The receiver
 * checks each against the next number it expects, so a gap, a duplicate, a reordering, a wrong
 * length, a flipped bit or a lost immediate is named with the message it hit. Either side stops at the
 * channel's first failure and keeps it, with when it came. The stream runs until
 * {@link #endAfter} says how many more messages it carries: a fault applied meanwhile then
 * certainly meets traffic, however long applying it took.
 */
final class CheckedStream {
    /** Messages in all: unbounded until {@link #endAfter}. */
    private volatile int count = Integer.MAX_VALUE;
    private final int maxMessage;
    private final AtomicInteger sent = new AtomicInteger();
    /** Messages the transport reported complete (on RDMA: the peer's queue pair acknowledged them). */
    private final AtomicInteger completed = new AtomicInteger();
    private final AtomicInteger received = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong bytesChecked = new java.util.concurrent.atomic.AtomicLong();
    private final AtomicReference<Throwable> sendFailure = new AtomicReference<>();
    private final AtomicReference<Throwable> receiveFailure = new AtomicReference<>();
    private final List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
    private volatile long sendFailedAt;
    private volatile long receiveFailedAt;

    CheckedStream(int maxMessage) {
        this.maxMessage = maxMessage;
    }

    /** Ends the stream {@code more} messages after those sent so far. */
    void endAfter(int more) {
        count = sent.get() + more;
    }

    static boolean hasImmediate(int seq) {
        return seq % 3 == 0;
    }

    static int immediate(int seq) {
        return seq * 0x9e3779b1;
    }

    /** Sends every message in order; returns when all were sent or the channel failed. */
    void send(Channel channel) {
        MemorySegment message = MemorySegment.ofArray(new byte[maxMessage]);
        try {
            for (int seq = 0; seq < count; seq++) {
                MemorySegment m = message.asSlice(0, SequencedMessage.write(message, 0, seq, maxMessage));
                CompletableFuture<Void> done = hasImmediate(seq) ? channel.send(m, immediate(seq)) : channel.send(m);
                sent.incrementAndGet();
                done.whenComplete((ok, failure) -> {
                    if (failure == null) {
                        completed.incrementAndGet();
                    }
                });
            }
        } catch (RuntimeException e) {
            sendFailedAt = System.nanoTime();
            sendFailure.set(e);
        }
    }

    /** Receives and checks until every message arrived, the channel ended or {@code within} passed. */
    void receive(Channel channel, Duration within) {
        ReceiveBuffer into = new ReceiveBuffer(MemorySegment.ofArray(new byte[channel.maxMessageSize()]));
        long deadline = System.nanoTime() + within.toNanos();
        try {
            while (received.get() < count && System.nanoTime() < deadline) {
                if (channel.receive(into, Duration.ofMillis(200))) {
                    check(received.get(), into);
                    bytesChecked.addAndGet(into.length());
                    received.incrementAndGet();
                }
            }
        } catch (RuntimeException e) {
            receiveFailedAt = System.nanoTime();
            receiveFailure.set(e);
        }
    }

    private void check(int expected, ReceiveBuffer got) {
        String wrong = SequencedMessage.check(got.message(), got.length(), 0, expected, maxMessage);
        if (wrong != null) {
            violations.add(wrong);
        }
        if (got.hasImmediate() != hasImmediate(expected)
                || hasImmediate(expected) && got.immediate() != immediate(expected)) {
            violations.add("message " + expected + ": immediate " + (got.hasImmediate() ? got.immediate() : "none")
                    + ", sent " + (hasImmediate(expected) ? immediate(expected) : "none"));
        }
    }

    int sent() {
        return sent.get();
    }

    int completed() {
        return completed.get();
    }

    int received() {
        return received.get();
    }

    /** Whether every message of a stream that was told its end arrived. */
    boolean arrivedWhole() {
        return received.get() == count;
    }

    /** Bytes of the messages that arrived and were checked. */
    long bytesChecked() {
        return bytesChecked.get();
    }

    List<String> violations() {
        return List.copyOf(violations);
    }

    /** The first failure of the sending or receiving side (null: none), the receiver's first. */
    Throwable failure() {
        Throwable r = receiveFailure.get();
        return r != null ? r : sendFailure.get();
    }

    /** When the first failure came (System.nanoTime()), or 0. */
    long failedAt() {
        long r = receiveFailedAt, s = sendFailedAt;
        return r == 0 ? s : s == 0 ? r : Math.min(r, s);
    }

    String describe() {
        return "sent " + sent() + ", completed " + completed() + ", received " + received()
                + (count == Integer.MAX_VALUE ? "" : " of " + count)
                + (failure() == null ? "" : ", ended: " + failure().getMessage());
    }
}
