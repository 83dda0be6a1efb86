package dev.verbs4j.guest.tcp;

import dev.verbs4j.unix.Iovecs;
import dev.verbs4j.unix.NativeSocket;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What a TCP channel has read and not yet handled: the read buffer, cut into whole frames for
 * the channel ({@link Frames}), and a MESSAGE payload that a receiving thread reads straight into
 * its own buffer (the "zone"), as a blocking socket's reader reads into its own.
 *
 * <p>Not thread-safe: the channel holds its reading lock around every call.
 */
final class TcpInbound {
    /**
     * The buffer holds this many of the largest frames (within the bounds below), so a frame cut
     * by the end of one read usually still fits behind it and need not be moved to the front.
     */
    private static final long FRAMES_PER_READ_BUFFER = 4;
    private static final long MIN_READ_BUFFER = 64 * 1024, MAX_READ_BUFFER = 1024 * 1024;
    /**
     * After a frame this large, reads go frame by frame, as a blocking reader reads a
     * length-prefixed stream: the length field alone, then exactly the rest of the frame. On
     * loopback with 64 KiB messages, reads that took whatever was there (up to the buffer's room)
     * streamed at 0.6-0.8 of that, measured against plain NIO in the same run. Smaller frames keep
     * reads that take many of them at once.
     */
    static final int LARGE_FRAME = 16 * 1024;

    /** What the channel does with what arrives. */
    interface Frames {
        /** One whole frame: its body (type, fields, payload) is {@code [at, at + length)} of {@code buffer}, during the call. */
        void frame(MemorySegment buffer, long at, int length);

        /** A MESSAGE read straight into {@code [0, length)} of {@code zone}. */
        void landed(MemorySegment zone, int length, boolean hasImmediate, int immediate);

        /** The peer sent what is no frame: the connection is lost. */
        void corrupt(String why);

        /**
         * The longest payload a valid frame of {@code type} (WRITE or READ_DONE) may carry here:
         * what this side registered or asked for. A longer one is refused before the buffer grows for it.
         */
        long longestPayload(byte type);

        /**
         * Whether to leave the frames that follow in the buffer: the channel ended (in a frame's
         * handling), or a thread reading for its own receive has its message (the next receive
         * takes the next one from here, with no copy kept in between).
         */
        boolean stopHere();
    }

    private final Frames frames;
    /** The longest MESSAGE body the peer may send: the agreed maximum and its fields. */
    private final long maxMessageBody;
    private final Iovecs landingIovecs = new Iovecs(Arena.ofAuto(), 2);
    /** Received bytes: [readAt, writeAt) not yet handled. Native memory owned by the GC. */
    private MemorySegment in;
    private long readAt;
    private long writeAt;
    /** A payload landing in a zone: {@code landed} of {@code landingLength} bytes are there (its header at the start of {@link #in}); -1 when none. */
    private long landed = -1;
    private int landingLength;
    /** The last frame was at least {@link #LARGE_FRAME}: the next read takes one frame, as {@link #nextReadLength} says. */
    private boolean framesAreLarge;
    /**
     * Reads that brought bytes, counted before their frames are handled: a sender woken by what
     * one brought sees it counted (one writer, whoever reads; senders read it under their lock).
     */
    private volatile long reads;

    TcpInbound(int maxMessageSize, Frames frames) {
        this.frames = frames;
        this.maxMessageBody = TcpFrame.MESSAGE_FIELDS + (long) maxMessageSize;
        long largestFrame = TcpFrame.MAX_HEADER + (long) maxMessageSize;
        this.in = Arena.ofAuto().allocate(
                Math.clamp(FRAMES_PER_READ_BUFFER * largestFrame, MIN_READ_BUFFER, MAX_READ_BUFFER), 64);
    }

    /** How many bytes the buffer takes behind what it holds (moving a partial frame to the front when full). */
    private long room() {
        if (writeAt == in.byteSize()) {
            compact();
        }
        return in.byteSize() - writeAt;
    }

    /**
     * How many bytes the next {@link #read(NativeSocket, boolean)} asks for: the buffer's room,
     * or after a large frame the rest of the next frame's length field, else the rest of that
     * frame. A read that gets less has emptied the socket.
     */
    long nextReadLength() {
        long room = room();
        if (!framesAreLarge) {
            return room;
        }
        long buffered = writeAt - readAt;
        long frameRest = buffered < TcpFrame.LENGTH_FIELD ? TcpFrame.LENGTH_FIELD - buffered
                : TcpFrame.LENGTH_FIELD + (long) TcpFrame.bodyLength(in, readAt) - buffered;
        return frameRest > 0 ? Math.min(room, frameRest) : room;
    }

    /**
     * One read into the buffer (waiting in it if {@code wait}), and the frames it completes:
     * the count, 0 when nothing came, -1 at end of stream.
     */
    long read(NativeSocket socket, boolean wait) {
        return read(socket, nextReadLength(), wait);
    }

    /** As {@link #read(NativeSocket, boolean)}, asking for {@code length}: what {@link #nextReadLength} just gave. */
    long read(NativeSocket socket, long length, boolean wait) {
        long at = in.address() + writeAt;
        long n = socket.read(at, length, wait);
        if (n > 0) {
            reads++;
            writeAt += n;
            handleFrames();
        }
        return n;
    }

    /**
     * One read for a thread whose native buffer is {@code zone}: when the next frame starts at
     * the socket's head, its header into the buffer and its payload (and whatever follows) into
     * the zone; the rest of a payload landing there; a frame begun in the buffer, into it. As
     * {@link #read(NativeSocket, boolean)}.
     */
    long read(NativeSocket socket, MemorySegment zone, boolean wait) {
        if (landed >= 0) {
            long at = zone.address() + landed, rest = landingLength - landed;
            long n = socket.read(at, rest, wait);
            if (n > 0) {
                reads++;
                landed += n;
                if (landed == landingLength) {
                    land(zone);
                }
            }
            return n;
        }
        if (readAt != writeAt) {
            return read(socket, wait);
        }
        readAt = writeAt = 0;
        landingIovecs.clear().add(in.address(), TcpFrame.MESSAGE_HEADER).add(zone.address(), zone.byteSize());
        long n = socket.read(landingIovecs, wait);
        if (n <= 0) {
            return n;
        }
        reads++;
        writeAt = Math.min(n, TcpFrame.MESSAGE_HEADER);
        long got = n - writeAt;
        int payload = TcpFrame.bodyLength(in, 0) - TcpFrame.MESSAGE_FIELDS;
        if (got == 0 || TcpFrame.type(in, TcpFrame.LENGTH_FIELD) != TcpFrame.MESSAGE
                || payload < 0 || payload > zone.byteSize()) {
            append(zone, 0, got); // not a message for the zone: its bytes follow the header in the buffer
            handleFrames();
            return n;
        }
        landingLength = payload;
        landed = Math.min(got, payload);
        if (landed == landingLength) {
            land(zone);
            append(zone, payload, got - payload); // the frames behind it
            handleFrames();
        }
        return n;
    }

    /** Whether the last frame was {@link #LARGE_FRAME} or more (reads go frame by frame). */
    boolean framesAreLarge() {
        return framesAreLarge;
    }

    /** Reads of the socket so far that brought bytes. */
    long reads() {
        return reads;
    }

    /** Whether a whole frame waits in the buffer, to be handled before the socket is read again. */
    boolean holdsFrame() {
        return writeAt - readAt >= TcpFrame.LENGTH_FIELD
                && writeAt - readAt >= TcpFrame.LENGTH_FIELD + (long) TcpFrame.bodyLength(in, readAt);
    }

    /** Hands the whole frames the buffer holds to the channel (as a read does after it reads). */
    void handleBuffered() {
        handleFrames();
    }

    /** A thread gives up waiting: a payload half read into its zone goes back behind its header. */
    void giveBack(MemorySegment zone) {
        if (landed >= 0) {
            append(zone, 0, landed);
            landed = -1;
        }
    }

    /** The payload in the zone is whole: its header in the buffer is used up. */
    private void land(MemorySegment zone) {
        boolean hasImmediate = TcpFrame.hasImmediate(in, TcpFrame.LENGTH_FIELD);
        int immediate = TcpFrame.immediate(in, TcpFrame.LENGTH_FIELD);
        readAt = writeAt = 0;
        landed = -1;
        framesAreLarge = landingLength >= LARGE_FRAME;
        frames.landed(zone, landingLength, hasImmediate, immediate);
    }

    /** Hands every whole frame in the buffer to the channel; keeps a partial one for the next read. */
    private void handleFrames() {
        while (writeAt - readAt >= TcpFrame.LENGTH_FIELD) {
            int body = TcpFrame.bodyLength(in, readAt);
            if (body < 1) {
                frames.corrupt("corrupt frame length " + body);
                return;
            }
            long frameEnd = readAt + TcpFrame.LENGTH_FIELD + body;
            if (writeAt - readAt > TcpFrame.LENGTH_FIELD && !plausible(body)) {
                return; // refused, before the buffer grows for what cannot be a frame of ours
            }
            if (frameEnd > writeAt) {
                if (TcpFrame.LENGTH_FIELD + (long) body > in.byteSize()) {
                    grow(TcpFrame.LENGTH_FIELD + (long) body);
                }
                break;
            }
            long start = readAt + TcpFrame.LENGTH_FIELD;
            readAt = frameEnd;
            framesAreLarge = body >= LARGE_FRAME;
            frames.frame(in, start, body);
            if (frames.stopHere()) {
                break;
            }
        }
        if (readAt == writeAt) {
            readAt = writeAt = 0; // all handled: nothing to move
        } else if (readAt + pendingFrameSize() > in.byteSize()) {
            compact(); // the frame begun here would not fit behind it
        }
    }

    /**
     * Whether the frame at readAt, whose type has arrived, may be as long as its length says:
     * a known type, a MESSAGE no longer than the agreed maximum, a WRITE or READ_DONE no longer
     * than this side could take, the other types exactly their fields long. (Its other fields are checked when it is whole.)
     */
    private boolean plausible(int body) {
        byte type = TcpFrame.type(in, readAt + TcpFrame.LENGTH_FIELD);
        int fields = TcpFrame.fields(type);
        if (fields < 0) {
            frames.corrupt("unknown frame type " + type);
            return false;
        }
        if (!TcpFrame.hasPayload(type) && body != fields) {
            frames.corrupt("a frame of type " + type + " with a body of " + body + " bytes (its fields take " + fields
                    + ")");
            return false;
        }
        if (type == TcpFrame.MESSAGE && body > maxMessageBody) {
            frames.corrupt("a message of " + (body - TcpFrame.MESSAGE_FIELDS) + " bytes, over the agreed maximum of "
                    + (maxMessageBody - TcpFrame.MESSAGE_FIELDS));
            return false;
        }
        if (type == TcpFrame.WRITE || type == TcpFrame.READ_DONE) {
            long payload = body - fields, longest = frames.longestPayload(type);
            if (payload > longest) {
                frames.corrupt((type == TcpFrame.WRITE ? "a one-sided write of " + payload
                        + " bytes, larger than any region registered here (" + longest + ")"
                        : "an answer of " + payload + " bytes to reads of at most " + longest + " bytes"));
                return false;
            }
        }
        return true;
    }

    /** The size of the frame begun at readAt, or of its length field while that is not whole. */
    private long pendingFrameSize() {
        return writeAt - readAt < TcpFrame.LENGTH_FIELD ? TcpFrame.LENGTH_FIELD
                : TcpFrame.LENGTH_FIELD + (long) TcpFrame.bodyLength(in, readAt);
    }

    /** Copies {@code length} bytes behind what the buffer holds, making room. */
    private void append(MemorySegment source, long offset, long length) {
        if (length <= 0) {
            return;
        }
        if (in.byteSize() - writeAt < length) {
            compact();
            if (in.byteSize() - writeAt < length) {
                grow(writeAt + length);
            }
        }
        MemorySegment.copy(source, offset, in, writeAt, length);
        writeAt += length;
    }

    private void compact() {
        long left = writeAt - readAt;
        if (readAt > 0 && left > 0) {
            MemorySegment.copy(in, readAt, in, 0, left);
        }
        readAt = 0;
        writeAt = left;
    }

    /** Makes room for a frame larger than the buffer. */
    private void grow(long frameSize) {
        MemorySegment bigger = Arena.ofAuto().allocate(Math.max(frameSize, in.byteSize() * 2), 64);
        long left = writeAt - readAt;
        MemorySegment.copy(in, readAt, bigger, 0, left);
        in = bigger;
        readAt = 0;
        writeAt = left;
    }
}
