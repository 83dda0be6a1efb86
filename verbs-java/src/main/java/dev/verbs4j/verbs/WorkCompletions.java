package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_wc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
    /** IBV_WC_WITH_IMM */
    private static final int WITH_IMM = 1 << 1;
    /** IBV_WC_GRH */
    private static final int GRH = 1 << 0;

    private final Arena arena;
    private final MemorySegment array;
    /** array's address, handed to poll_cq as a plain long (see ContextOps) */
    private final long address;
    private final int capacity;
    int count;

    public WorkCompletions(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive, got " + capacity);
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

    /** The array's address for poll_cq; throws once closed, so the provider never writes freed memory. */
    long address() {
        if (!arena.scope().isAlive()) {
            throw new IllegalStateException("this WorkCompletions batch is closed");
        }
        return address;
    }

    public long wrId(int i) {
        return array.get(JAVA_LONG, off(i) + WR_ID);
    }

    /** IBV_WC_* status code; 0 is success. */
    public int status(int i) {
        return array.get(JAVA_INT, off(i) + STATUS);
    }

    public WcStatus statusEnum(int i) {
        return WcStatus.of(status(i));
    }

    public boolean isSuccess(int i) {
        return status(i) == 0;
    }

    /** IBV_WC_* opcode (SEND = 0, RDMA_WRITE = 1, ..., RECV = 128, RECV_RDMA_WITH_IMM = 129). */
    public int opcode(int i) {
        return array.get(JAVA_INT, off(i) + OPCODE);
    }

    public WcOpcode opcodeEnum(int i) {
        return WcOpcode.of(opcode(i));
    }

    public int vendorError(int i) {
        return array.get(JAVA_INT, off(i) + VENDOR_ERR);
    }

    public int byteLength(int i) {
        return array.get(JAVA_INT, off(i) + BYTE_LEN);
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
        return array.get(JAVA_INT, off(i) + IMM_DATA);
    }

    public int qpNumber(int i) {
        return array.get(JAVA_INT, off(i) + QP_NUM);
    }

    /** Sender's QP number (UD receives). */
    public int sourceQp(int i) {
        return array.get(JAVA_INT, off(i) + SRC_QP);
    }

    public int wcFlags(int i) {
        return array.get(JAVA_INT, off(i) + WC_FLAGS);
    }

    public int sourceLid(int i) {
        return Short.toUnsignedInt(array.get(JAVA_SHORT, off(i) + SLID));
    }

    public int pkeyIndex(int i) {
        return Short.toUnsignedInt(array.get(JAVA_SHORT, off(i) + PKEY_INDEX));
    }

    private long off(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("completion " + i + " of " + count);
        }
        return i * WC_SIZE;
    }

    @Override
    public void close() {
        arena.close();
    }
}
