package dev.verbs4j.guest.rdma;

/**
 * How one side's connect probe (an empty SEND with immediate data) arrived at the other, and so
 * what that side's sends carry on this path. A real RDMA device delivers it intact. QEMU's
 * emulated PVRDMA device is the known exception: it re-posts every work request of its guest as
 * a plain SEND, and hands its guest a received immediate's flag without the value.
 */
public enum ProbeArrival {
    /** As sent: immediate data, and (by the same token) the opcodes and flags, come through. */
    INTACT,
    /** A plain SEND: the device rewrote the work request, so RDMA WRITE and READ would not do what they say either. */
    WITHOUT_IMMEDIATE,
    /**
     * Flagged as carrying immediate data, but another value: the receiving device loses the value,
     * and is not to be trusted as the target of RDMA WRITE or READ either.
     */
    IMMEDIATE_ALTERED;

    private static final String EMULATION = "as QEMU's emulated PVRDMA device does";

    /** Its byte in the bootstrap exchange. */
    public int code() {
        return ordinal();
    }

    /**
     * The arrival a bootstrap byte stands for.
     *
     * @throws IllegalArgumentException for a byte no verbs4j peer sends
     */
    public static ProbeArrival ofCode(int code) {
        ProbeArrival[] all = values();
        if (code < 0 || code >= all.length) {
            throw new IllegalArgumentException("unknown probe arrival " + code);
        }
        return all[code];
    }

    /** Why a send with immediate data is refused on this side, null when it is not. */
    String immediatesRefusal() {
        return switch (this) {
            case INTACT -> null;
            case WITHOUT_IMMEDIATE -> "this path delivers this side's sends as plain SENDs without immediate data"
                    + " (the device rewrites every work request, " + EMULATION + "): send without immediate data";
            case IMMEDIATE_ALTERED -> "this path delivers immediate data from this side altered (the peer's device"
                    + " keeps the flag and loses the value, " + EMULATION + "): send without immediate data";
        };
    }

    /** Why RDMA WRITE and READ are refused on this side, null when they are not. */
    String oneSidedRefusal() {
        return switch (this) {
            case INTACT -> null;
            case WITHOUT_IMMEDIATE -> "this path turns this side's RDMA WRITE and READ into plain SENDs (the device"
                    + " rewrites every work request, " + EMULATION + "): exchange the data as messages";
            // QEMU registers its guest's memory with the backend device at the host's addresses, not
            // the guest's, so a remote access at the address the guest names misses its region
            case IMMEDIATE_ALTERED -> "the peer's device alters what arrives (" + EMULATION + ", which also registers"
                    + " its guest's memory at other addresses): RDMA WRITE and READ into it are refused;"
                    + " exchange the data as messages";
        };
    }

    /** What the path does not carry, in a few words for the transport's reason; null when intact. */
    String limits() {
        return switch (this) {
            case INTACT -> null;
            case WITHOUT_IMMEDIATE -> "this side's sends arrive as plain SENDs: no immediate data, no RDMA WRITE/READ";
            case IMMEDIATE_ALTERED -> "immediate data from this side arrives altered: no immediate data,"
                    + " no RDMA WRITE/READ";
        };
    }
}
