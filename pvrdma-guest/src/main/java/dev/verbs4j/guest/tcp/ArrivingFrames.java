package dev.verbs4j.guest.tcp;

import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.channel.BufferWaiter;
import dev.verbs4j.guest.channel.ChannelInbox;
import java.lang.foreign.MemorySegment;

/**
 * Where a TCP channel's whole frames go, as {@link TcpInbound} cuts them and {@link TcpFrame}
 * reads their fields: messages to the inbox (or, read straight into its buffer, to the thread
 * that waits for it), one-sided requests and their answers to {@link OneSidedAccess}, the peer's
 * close and what is no frame to the channel's end.
 *
 * <p>Runs under the reading lock (whoever reads the socket), which also guards
 * {@link #directReader}.
 */
final class ArrivingFrames implements TcpInbound.Frames, TcpFrame.Handler {
    private final TcpChannel channel;
    private final ChannelInbox inbox;
    private final OneSidedAccess oneSided;
    private final SocketInterest interest;
    /** The thread reading the socket for its own receive, whose buffer a message may land in; null when none. */
    private BufferWaiter directReader;

    ArrivingFrames(TcpChannel channel, ChannelInbox inbox, OneSidedAccess oneSided, SocketInterest interest) {
        this.channel = channel;
        this.inbox = inbox;
        this.oneSided = oneSided;
        this.interest = interest;
    }

    /** A message for the inbox; one that fills it holds the socket's input back. */
    private void deliver(MemorySegment in, long at, int length, boolean hasImmediate, int immediate) {
        if (!inbox.deliver(channel, in, at, length, hasImmediate, immediate) && interest.holdInput()) {
            channel.tellPeerHolding(true);
        }
    }

    /** A thread reads the socket for its own receive from now on (null: no longer). */
    void readFor(BufferWaiter waiter) {
        directReader = waiter;
    }

    /** The thread that reads for its own receive, or null. */
    BufferWaiter directReader() {
        return directReader;
    }

    // ---- TcpInbound.Frames -------------------------------------------------------------------

    @Override
    public void frame(MemorySegment in, long at, int length) {
        TcpFrame.decode(in, at, length, this);
    }

    @Override
    public void landed(MemorySegment zone, int length, boolean hasImmediate, int immediate) {
        if (!inbox.fillInPlace(directReader, length, hasImmediate, immediate)) {
            deliver(zone, 0, length, hasImmediate, immediate); // someone was first in line
        }
    }

    @Override
    public void corrupt(String why) {
        channel.lost(new IllegalStateException(why));
    }

    @Override
    public long longestPayload(byte type) {
        return type == TcpFrame.WRITE ? oneSided.longestWrite() : oneSided.longestReadAnswer();
    }

    @Override
    public boolean stopHere() {
        return channel.endCause() != null || (directReader != null && directReader.getAsBoolean())
                || interest.inputHeld();
    }

    // ---- TcpFrame.Handler --------------------------------------------------------------------

    @Override
    public void message(MemorySegment in, long payloadAt, int length, boolean hasImmediate, int immediate) {
        deliver(in, payloadAt, length, hasImmediate, immediate);
    }

    @Override
    public void writeRequest(long id, long address, int key, MemorySegment in, long payloadAt, int length) {
        oneSided.serveWrite(id, address, key, in, payloadAt, length);
    }

    @Override
    public void readRequest(long id, long address, int key, int length) {
        oneSided.serveRead(id, address, key, length);
    }

    @Override
    public void writeDone(long id, byte status) {
        oneSided.writeDone(id, status);
    }

    @Override
    public void readDone(long id, byte status, MemorySegment in, long payloadAt, int length) {
        oneSided.readDone(id, status, in, payloadAt, length);
    }

    @Override
    public void peerClosed() {
        channel.endWith(new ChannelException(ChannelError.PEER_CLOSED, "the peer closed the channel"));
    }

    @Override
    public void peerHolds(boolean holding) {
        channel.peerHolds(holding);
    }

    @Override
    public void malformed(String why) {
        channel.lost(new IllegalStateException("the peer sent " + why));
    }
}
