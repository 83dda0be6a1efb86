package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import dev.verbs4j.bindings.ibv_wc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A reusable batch of work completions ({@code struct ibv_wc[]}) in native memory, filled by
 * {@link CompletionQueue#poll(WorkCompletions)}. Accessors read straight from the native array
 * and allocate nothing.
 *
 * <p><b>Ownership.</b> The caller owns the batch and its native memory, and closes it when done
 * polling; it is not tied to any CQ and may be used with several.
 *
 * <p><b>Threads.</b> Not thread-safe: one batch per polling thread. Close it on that thread, after
 * its last poll.
 *
 * <p>Every accessor takes {@code i}, the index of a completion of the last poll, 0 to
 * {@link #count()} minus 1, and throws {@link IndexOutOfBoundsException} otherwise, or
 * {@link IllegalStateException} once the batch is closed.
 */
public final class WorkCompletions implements AutoCloseable {
    private static final long WC_SIZE = ibv_wc.sizeof();
    private static final long WR_ID = ibv_wc.wr_id$offset();
    private static final long STATUS = ibv_wc.status$offset();
    private static final long OPCODE = ibv_wc.opcode$offset();
    private static final long VENDOR_ERR = ibv_wc.vendor_err$offset();
    private static final long BYTE_LEN = ibv_wc.byte_len$offset();
    private static final long IMM_DATA = ibv_wc.imm_data$offset();
    private static final long QP_NUM = ibv_wc.qp_num$offset();
    private static final long SRC_QP = ibv_wc.src_qp$offset();
    private static final long WC_FLAGS = ibv_wc.wc_flags$offset();
    private static final long SLID = ibv_wc.slid$offset();
    private static final long PKEY_INDEX = ibv_wc.pkey_index$offset();
    /*
     * Field reads go through constant VarHandles, which C1 compiles to about half the work of
     * MemorySegment.get with a layout argument (4.1 against 8.6 ns per read, C1-only
     * microbenchmark); C2 makes both a plain load.
     */
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    private static final VarHandle INT = JAVA_INT.varHandle();
    private static final VarHandle SHORT = JAVA_SHORT.varHandle();
    /** IBV_WC_WITH_IMM */
    private static final int WITH_IMM = 1 << 1;
    /** IBV_WC_GRH */
    private static final int GRH = 1 << 0;

    private final Arena arena;
    private final MemorySegment array;
    /** array's address, handed to poll_cq as a plain long (see ContextOps) */
    private final long address;
    private final int capacity;
    /** Set by close; poll reads it instead of the arena's scope (two interface calls under C1). */
    private volatile boolean closed;
    int count;

    /**
     * The largest batch: no device's CQ holds more completions (mlx5's max_cqe, 2^22), so one
     * poll never returns more, and a larger batch would only tie up native memory.
     */
    public static final int MAX_CAPACITY = 1 << 22;

    /**
     * Allocates a batch of {@code capacity} completions in native memory.
     *
     * @param capacity the most completions one poll can return into it, 1 to {@link #MAX_CAPACITY}
     * @throws IllegalArgumentException if {@code capacity} is out of range
     */
    public WorkCompletions(int capacity) {
        if (capacity <= 0 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("a batch holds 1.." + MAX_CAPACITY
                    + " completions (WorkCompletions.MAX_CAPACITY, the largest max_cqe of any device), asked for "
                    + capacity);
        }
        this.arena = Arena.ofShared();
        this.capacity = capacity;
        this.array = arena.allocate(ibv_wc.layout(), capacity);
        this.address = array.address();
    }

    /**
     * How many completions the batch holds.
     *
     * @return its capacity, fixed at construction
     */
    public int capacity() {
        return capacity;
    }

    /**
     * How many completions the last poll returned.
     *
     * @return 0 to {@link #capacity()}; valid indexes are 0 to this minus 1
     */
    public int count() {
        return count;
    }

    MemorySegment segment() {
        return array;
    }

    /**
     * The array's address for a poll of up to {@code max} completions; throws once closed, so
     * the provider never writes freed memory, and when max is outside 1..capacity.
     */
    long addressFor(int max) {
        if (closed || max < 1 || max > capacity) {
            throw unusable(max);
        }
        return address;
    }

    private RuntimeException unusable(int max) {
        if (closed) {
            return new IllegalStateException("this WorkCompletions batch is closed");
        }
        return new IllegalArgumentException("max " + max + " outside 1.." + capacity + " (the batch's capacity)");
    }

    /** Records what poll_cq returned: n completions, or a negative errno (the CQ overran or the device failed). */
    int filled(int n) {
        if (n < 0) {
            throw pollFailed(n);
        }
        count = n;
        return n;
    }

    private VerbsException pollFailed(int rc) {
        count = 0;
        return new VerbsException("polling the CQ failed", "ibv_poll_cq", -rc > 0 ? -rc : Errno.EIO,
                "the CQ overran (more outstanding work than CQ entries) or the device failed");
    }

    /**
     * The work request id the poster gave ({@code wr_id}).
     *
     * @param i index of a completion of the last poll
     * @return the id, as posted
     */
    public long wrId(int i) {
        return (long) LONG.get(array, off(i) + WR_ID);
    }

    /**
     * The completion's status ({@code IBV_WC_*} code); 0 is success.
     *
     * @param i index of a completion of the last poll
     * @return the raw status; see {@link WcStatus}
     */
    public int status(int i) {
        return (int) INT.get(array, off(i) + STATUS);
    }

    /**
     * The completion's status as an enum.
     *
     * @param i index of a completion of the last poll
     * @return the status, {@link WcStatus#SUCCESS} when it succeeded
     */
    public WcStatus statusEnum(int i) {
        return WcStatus.of(status(i));
    }

    /**
     * Whether the work request succeeded.
     *
     * @param i index of a completion of the last poll
     * @return true for status 0; on failure only wr_id, status, qp_num and the vendor error are valid
     */
    public boolean isSuccess(int i) {
        return status(i) == 0;
    }

    /**
     * The completion's opcode ({@code IBV_WC_*}: SEND = 0, RDMA_WRITE = 1, ..., RECV = 128,
     * RECV_RDMA_WITH_IMM = 129). Valid only for successful completions.
     *
     * @param i index of a completion of the last poll
     * @return the raw opcode; see {@link WcOpcode}
     */
    public int opcode(int i) {
        return (int) INT.get(array, off(i) + OPCODE);
    }

    /**
     * The completion's opcode as an enum. Valid only for successful completions.
     *
     * @param i index of a completion of the last poll
     * @return the opcode
     * @throws IllegalArgumentException if the provider returned an opcode this library does not know
     */
    public WcOpcode opcodeEnum(int i) {
        return WcOpcode.of(opcode(i));
    }

    /**
     * The provider's own error code, for failed completions.
     *
     * @param i index of a completion of the last poll
     * @return the vendor error, 0 when none
     */
    public int vendorError(int i) {
        return (int) INT.get(array, off(i) + VENDOR_ERR);
    }

    /**
     * Bytes transferred: for receives, the bytes the sender sent (plus 40 for the GRH on UD); for RDMA
     * reads and atomics, the bytes read.
     *
     * @param i index of a completion of the last poll
     * @return the byte count, as an unsigned 32-bit value in an int
     */
    public int byteLength(int i) {
        return (int) INT.get(array, off(i) + BYTE_LEN);
    }

    /**
     * Whether the completion carries immediate data ({@code IBV_WC_WITH_IMM}).
     *
     * @param i index of a completion of the last poll
     * @return true for receives of SEND_WITH_IMM or RDMA_WRITE_WITH_IMM
     */
    public boolean hasImmediate(int i) {
        return (wcFlags(i) & WITH_IMM) != 0;
    }

    /**
     * Whether the receive buffer starts with a valid 40-byte global routing header
     * ({@code IBV_WC_GRH}, UD receives).
     *
     * @param i index of a completion of the last poll
     * @return true when the first 40 bytes of the buffer hold a GRH
     */
    public boolean hasGrh(int i) {
        return (wcFlags(i) & GRH) != 0;
    }

    /**
     * Immediate data as the sender passed it (converted from network order, as ibv_rc_pingpong does not).
     *
     * @param i index of a completion of the last poll
     * @return the 32-bit immediate value; meaningful only when {@link #hasImmediate(int)}
     */
    public int immediateData(int i) {
        return Integer.reverseBytes(rawImmediateData(i));
    }

    /**
     * {@code imm_data} exactly as it lies in the ibv_wc (network byte order).
     *
     * @param i index of a completion of the last poll
     * @return the raw immediate value; meaningful only when {@link #hasImmediate(int)}
     */
    public int rawImmediateData(int i) {
        return (int) INT.get(array, off(i) + IMM_DATA);
    }

    /**
     * The local QP the completion belongs to ({@code qp_num}).
     *
     * @param i index of a completion of the last poll
     * @return the 24-bit QP number
     */
    public int qpNumber(int i) {
        return (int) INT.get(array, off(i) + QP_NUM);
    }

    /**
     * The sender's QP number ({@code src_qp}), for UD receives.
     *
     * @param i index of a completion of the last poll
     * @return the remote 24-bit QP number; meaningless for other completions
     */
    public int sourceQp(int i) {
        return (int) INT.get(array, off(i) + SRC_QP);
    }

    /**
     * The raw completion flags ({@code wc_flags}: bit 0 GRH, bit 1 WITH_IMM, ...).
     *
     * @param i index of a completion of the last poll
     * @return the flag bits
     */
    public int wcFlags(int i) {
        return (int) INT.get(array, off(i) + WC_FLAGS);
    }

    /**
     * The sender's LID ({@code slid}), for receives on InfiniBand; 0 on RoCE.
     *
     * @param i index of a completion of the last poll
     * @return the 16-bit LID, unsigned
     */
    public int sourceLid(int i) {
        return Short.toUnsignedInt((short) SHORT.get(array, off(i) + SLID));
    }

    /**
     * The partition key index ({@code pkey_index}), for UD/GSI receives.
     *
     * @param i index of a completion of the last poll
     * @return the 16-bit index, unsigned
     */
    public int pkeyIndex(int i) {
        return Short.toUnsignedInt((short) SHORT.get(array, off(i) + PKEY_INDEX));
    }

    private long off(int i) {
        if (i < 0 || i >= count) {
            throw outOfRange(i); // built elsewhere: keeps this method small enough for C1 to inline
        }
        return i * WC_SIZE;
    }

    private IndexOutOfBoundsException outOfRange(int i) {
        return new IndexOutOfBoundsException("completion " + i + " of " + count);
    }

    /**
     * Frees the batch's native memory. Idempotent. Call it on the polling thread, after the last poll:
     * a later poll or accessor throws {@link IllegalStateException}.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
