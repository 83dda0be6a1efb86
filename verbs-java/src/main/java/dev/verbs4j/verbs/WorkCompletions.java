package dev.verbs4j.verbs;

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
 * and allocate nothing. One batch per polling thread.
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

    public int capacity() {
        return capacity;
    }

    /** How many completions the last poll returned. */
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

    public long wrId(int i) {
        return (long) LONG.get(array, off(i) + WR_ID);
    }

    /** IBV_WC_* status code; 0 is success. */
    public int status(int i) {
        return (int) INT.get(array, off(i) + STATUS);
    }

    public WcStatus statusEnum(int i) {
        return WcStatus.of(status(i));
    }

    public boolean isSuccess(int i) {
        return status(i) == 0;
    }

    /** IBV_WC_* opcode (SEND = 0, RDMA_WRITE = 1, ..., RECV = 128, RECV_RDMA_WITH_IMM = 129). */
    public int opcode(int i) {
        return (int) INT.get(array, off(i) + OPCODE);
    }

    public WcOpcode opcodeEnum(int i) {
        return WcOpcode.of(opcode(i));
    }

    public int vendorError(int i) {
        return (int) INT.get(array, off(i) + VENDOR_ERR);
    }

    public int byteLength(int i) {
        return (int) INT.get(array, off(i) + BYTE_LEN);
    }

    public boolean hasImmediate(int i) {
        return (wcFlags(i) & WITH_IMM) != 0;
    }

    public boolean hasGrh(int i) {
        return (wcFlags(i) & GRH) != 0;
    }

    /** Immediate data as the sender passed it (converted from network order, as ibv_rc_pingpong does not). */
    public int immediateData(int i) {
        return Integer.reverseBytes(rawImmediateData(i));
    }

    /** imm_data exactly as it lies in the ibv_wc (network byte order). */
    public int rawImmediateData(int i) {
        return (int) INT.get(array, off(i) + IMM_DATA);
    }

    public int qpNumber(int i) {
        return (int) INT.get(array, off(i) + QP_NUM);
    }

    /** Sender's QP number (UD receives). */
    public int sourceQp(int i) {
        return (int) INT.get(array, off(i) + SRC_QP);
    }

    public int wcFlags(int i) {
        return (int) INT.get(array, off(i) + WC_FLAGS);
    }

    public int sourceLid(int i) {
        return Short.toUnsignedInt((short) SHORT.get(array, off(i) + SLID));
    }

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

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
