package dev.verbs4j.guest.transport;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.loop.CompletionLoop;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * The receive side both transports share: messages that arrived wait for receive() futures (or
 * go straight to a listener). When the channel ends, messages already here can still be
 * received; only then do receives fail with the reason the channel ended.
 */
final class ChannelInbox {
    private final CompletionLoop loop;
    private final ArrayDeque<ChannelMessage> arrived = new ArrayDeque<>();
    private final ArrayDeque<CompletableFuture<ChannelMessage>> waiting = new ArrayDeque<>();
    /** Written under the lock; read without it on the delivery path (the common case needs no lock). */
    private volatile ChannelListener listener;
    private ChannelException end;
    private boolean endNotified;

    ChannelInbox(CompletionLoop loop) {
        this.loop = loop;
    }

    CompletableFuture<ChannelMessage> receive() {
        synchronized (this) {
            ChannelMessage m = arrived.poll();
            if (m != null) {
                return CompletableFuture.completedFuture(m);
            }
            if (end == null) {
                CompletableFuture<ChannelMessage> f = loop.newFuture();
                waiting.add(f);
                return f;
            }
        }
        return CompletableFuture.failedFuture(end);
    }

    void setListener(Channel channel, ChannelListener l) {
        ArrayDeque<ChannelMessage> backlog;
        boolean ended;
        synchronized (this) {
            listener = l;
            backlog = new ArrayDeque<>(arrived);
            arrived.clear();
            ended = end != null && !endNotified;
            endNotified |= ended;
        }
        for (ChannelMessage m : backlog) {
            deliverTo(l, channel, m); // arrived before the listener: through the same method as the rest
        }
        if (ended) {
            l.onClosed(channel, orderly(end) ? null : end);
        }
    }

    /**
     * A whole message arrived at {@code [offset, offset + length)} of {@code buffer}, valid
     * during this call (loop thread): a listener reads it there, a receive gets a copy.
     */
    void deliver(Channel channel, MemorySegment buffer, long offset, int length, boolean hasImmediate, int immediate) {
        ChannelListener l = listener;
        if (l != null) {
            l.onMessage(channel, buffer, offset, length, hasImmediate, immediate);
            return;
        }
        ChannelMessage message = ChannelMessage.copyOf(buffer, offset, length, hasImmediate, immediate);
        CompletableFuture<ChannelMessage> f;
        synchronized (this) {
            l = listener;
            if (l == null) {
                f = waiting.poll();
                if (f == null) {
                    arrived.add(message);
                    return;
                }
            } else {
                f = null;
            }
        }
        if (l != null) {
            deliverTo(l, channel, message); // set meanwhile
        } else {
            f.complete(message);
        }
    }

    /**
     * A message kept as a copy goes to a listener through the in-place method too, which a
     * listener that reads in place overrides (and need not implement the other); the default
     * one copies it once more.
     */
    private static void deliverTo(ChannelListener l, Channel channel, ChannelMessage m) {
        l.onMessage(channel, m.data(), 0, m.length(), m.hasImmediate(), m.immediate());
    }

    /** The channel ended; {@code cause} says how (PEER_CLOSED/CLOSED for orderly ends). */
    void end(Channel channel, ChannelException cause) {
        ArrayDeque<CompletableFuture<ChannelMessage>> toFail;
        ChannelListener l;
        synchronized (this) {
            if (end != null) {
                return;
            }
            end = cause;
            toFail = new ArrayDeque<>(waiting);
            waiting.clear();
            l = listener;
            endNotified = l != null;
        }
        for (CompletableFuture<ChannelMessage> f : toFail) {
            f.completeExceptionally(cause);
        }
        if (l != null) {
            l.onClosed(channel, orderly(cause) ? null : cause);
        }
    }

    private static boolean orderly(ChannelException e) {
        return e.error() == ChannelError.PEER_CLOSED || e.error() == ChannelError.CLOSED;
    }
}
