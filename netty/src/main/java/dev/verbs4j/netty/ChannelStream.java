package dev.verbs4j.netty;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A byte stream over one of verbs4j's channels, as a socket carries one. Messages without
 * immediate data are the stream's bytes; three kinds with immediate data steer it: HELLO (this
 * side's receive window, the first thing each side sends), CREDIT (bytes the application has
 * read since the last credit: the peer may send that many more) and FIN (no more bytes follow:
 * {@code shutdownOutput}). A credit goes back once a quarter of the window has been read, so a
 * request and its answer carry none. The channel layer keeps messages in order, so FIN comes
 * after the last byte. Runs on the event loop's thread, where the completion loop calls it.
 */
final class ChannelStream implements ChannelListener {
    static final int HELLO = 0x7634_4E01, CREDIT = 0x7634_4E02, FIN = 0x7634_4E03;

    private final Verbs4jSocketChannel channel;
    private final Channel link;
    private final Verbs4jIoHandler handler;
    final StreamInbound inbound;
    final StreamOutbound outbound;
    private final int window;
    private final MemorySegment control = Arena.ofAuto().allocate(8, 8);
    private boolean helloOwed = true, finOwed;
    private long creditOwed;
    private boolean queuedForPassEnd;
    private boolean sendingControl;

    ChannelStream(Verbs4jSocketChannel channel, Channel link, Verbs4jIoHandler handler, int window) {
        this.channel = channel;
        this.link = link;
        this.handler = handler;
        this.window = window;
        this.inbound = new StreamInbound(channel, this, window);
        this.outbound = new StreamOutbound(link);
    }

    /** Takes the channel's messages from here on (those that came before first) and says HELLO. */
    void start() {
        sendControl();
        link.setListener(this);
    }

    Channel link() {
        return link;
    }

    /** The application read {@code bytes}: credit them back once a quarter of the window is read. */
    void consumed(int bytes) {
        creditOwed += bytes;
        if (creditOwed >= window / 4) {
            sendControl();
        }
    }

    /** This side's output is shut: FIN after what was sent. */
    void finish() {
        finOwed = true;
        sendControl();
    }

    /** Runs {@link #passEnded} when the loop's pass is over. */
    void atPassEnd() {
        if (!queuedForPassEnd) {
            queuedForPassEnd = true;
            handler.afterPass(this);
        }
    }

    void passEnded() {
        queuedForPassEnd = false;
        if (creditOwed > 0 && !link.isOpen()) {
            creditOwed = 0;
        }
        inbound.passEnded();
    }

    /** Sends what is owed, in order; what the send queue refuses goes at {@link #onSendSpace}. */
    private void sendControl() {
        if (sendingControl) {
            return; // a slot freed by this very offer: the loop below goes on anyway
        }
        sendingControl = true;
        try {
            if (helloOwed && !offer(HELLO, window)) {
                return;
            }
            helloOwed = false;
            if (creditOwed > 0 && link.isOpen()) {
                if (!offer(CREDIT, creditOwed)) {
                    return;
                }
                creditOwed = 0;
            }
            if (finOwed && offer(FIN, 0)) {
                finOwed = false;
            }
        } catch (ChannelException ended) {
            // the channel has ended: onClosed tells the Netty channel
        } finally {
            sendingControl = false;
        }
    }

    private boolean offer(int kind, long value) {
        control.set(ValueLayout.JAVA_LONG, 0, value);
        return link.offer(control, true, kind);
    }

    @Override
    public void onMessage(Channel ch, ChannelMessage message) {
        onMessage(ch, message.data(), 0, message.length(), message.hasImmediate(), message.immediate());
    }

    @Override
    public void onMessage(Channel ch, MemorySegment buffer, long offset, int length, boolean hasImmediate,
                          int immediate) {
        if (!hasImmediate) {
            inbound.data(buffer, offset, length);
            return;
        }
        switch (immediate) {
            case HELLO, CREDIT -> {
                outbound.granted(buffer.get(ValueLayout.JAVA_LONG_UNALIGNED, offset));
                channel.writable();
            }
            case FIN -> inbound.endOfStream();
            default -> channel.linkFailed(new java.io.IOException("a message of unknown kind 0x"
                    + Integer.toHexString(immediate) + ": the peer is not a verbs4j Netty channel"));
        }
    }

    @Override
    public void onSendSpace(Channel ch) {
        sendControl();
        channel.writable();
    }

    @Override
    public void onClosed(Channel ch, ChannelException cause) {
        if (channel.eventLoop().inEventLoop()) {
            channel.linkEnded(cause);
        } else {
            channel.eventLoop().execute(() -> channel.linkEnded(cause));
        }
    }
}
