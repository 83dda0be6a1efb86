package dev.verbs4j.guest.shm;

/**
 * A record in a ring: a 24-byte header, then the record's body (its fields, then any payload),
 * padded to 8 bytes. The header's first word commits the record: the producer writes everything
 * else first and then stores {@code position + 1} there with release semantics; the consumer
 * reads it with acquire semantics and takes the record only when it equals its own position + 1
 * (a record from an earlier lap, or memory never written, holds another value).
 *
 * <pre>
 *   0  long commit      position + 1
 *   8  int  length      of the body
 *   12 int  type
 *   16 int  immediate   (MESSAGE)
 *   20 int  flags       HAS_IMMEDIATE
 * </pre>
 *
 * Bodies: MESSAGE the payload; WRITE {long id, long address, int key, int 0} and the payload;
 * READ {long id, long address, int key, int length}; WRITE_DONE {long id, int status, int 0};
 * READ_DONE {long id, int status, int 0} and the payload; PADDING fills the ring to its end;
 * GOODBYE has none.
 */
final class ShmRecord {
    static final int HEADER = 24;
    static final long COMMIT = 0, LENGTH = 8, TYPE = 12, IMMEDIATE = 16, FLAGS = 20;
    static final int MESSAGE = 1, PADDING = 2, GOODBYE = 3, WRITE = 4, READ = 5, WRITE_DONE = 6, READ_DONE = 7;
    static final int HAS_IMMEDIATE = 1;
    /** Body fields: the operation id first in all four one-sided types. */
    static final long ID = 0, ADDRESS = 8, KEY = 16, READ_LENGTH = 20, STATUS = 8;
    static final int REQUEST_FIELDS = 24, ANSWER_FIELDS = 16;
    static final int STATUS_OK = 0, STATUS_REFUSED = 1;

    private ShmRecord() {}

    static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }

    /** The largest record the channel writes: a header, the widest fields and a whole message. */
    static long maxRecordSize(int maxMessageSize) {
        return align(HEADER + REQUEST_FIELDS + (long) maxMessageSize);
    }

    /** The largest body a record of {@code type} may have, or -1 for a type that is none of ours. */
    static long maxBody(int type, int maxMessageSize) {
        return switch (type) {
            case MESSAGE -> maxMessageSize;
            case WRITE -> REQUEST_FIELDS + (long) maxMessageSize;
            case READ -> REQUEST_FIELDS;
            case WRITE_DONE -> ANSWER_FIELDS;
            case READ_DONE -> ANSWER_FIELDS + (long) maxMessageSize;
            case GOODBYE -> 0;
            case PADDING -> Long.MAX_VALUE; // bounded by the ring's end instead
            default -> -1;
        };
    }

    /** The smallest body of {@code type}: its fields. */
    static long minBody(int type) {
        return switch (type) {
            case WRITE, READ -> REQUEST_FIELDS;
            case WRITE_DONE, READ_DONE -> ANSWER_FIELDS;
            default -> 0;
        };
    }
}
