package dev.verbs4j.verbs;

import dev.verbs4j.unix.Errno;
import java.util.Map;

/** What the status of a failure event means, and what to do about it. */
final class CmStatus {
    /** The IB CM reject reasons (enum ib_cm_rej_reason) that show up in practice. */
    private static final Map<Integer, String> REJECT_REASONS = Map.of(
            1, "no QP", 3, "no resources", 4, "timeout", 5, "unsupported request",
            8, "invalid service ID", 12, "invalid GID", 26, "invalid MTU",
            27, "insufficient responder resources", 28, "rejected by the peer application",
            29, "invalid RNR retry");

    private CmStatus() {}

    /** "status 8: invalid service ID" for rejections, "ETIMEDOUT" for errno statuses. */
    static String describe(CmEventType type, int status) {
        if (type == CmEventType.REJECTED) {
            String reason = REJECT_REASONS.get(status);
            return "status " + status + (reason == null ? "" : ": " + reason);
        }
        return status < 0 ? Errno.name(-status) : "status " + status;
    }

    /** The errno a failure event carries, or 0 (rejections carry a reject reason instead). */
    static int errno(CmEventType type, int status) {
        return type != CmEventType.REJECTED && status < 0 ? -status : 0;
    }

    static String hint(CmEventType type, int status) {
        return switch (type) {
            case ADDR_ERROR -> "no RDMA device reaches that address: is it the IP of an RDMA-capable interface "
                    + "(see 'rdma link'), is the interface up, and is there a route to the destination?";
            case ROUTE_ERROR -> "no path to the peer: check the GIDs of the port and, on InfiniBand, the subnet manager";
            case UNREACHABLE -> "the peer did not answer: is the server running, and are the address and GID right?";
            case REJECTED -> switch (status) {
                case 8 -> "nothing listens on that address and port: start the server first, or check the port";
                case 28 -> "the server application refused the connection; see the private data of the event";
                default -> "the peer's CM refused the connection";
            };
            case CONNECT_ERROR -> "the connection failed while being set up: the QP could not be moved to RTR/RTS "
                    + "(check the QP attributes and the device limits)";
            case DEVICE_REMOVAL -> "the RDMA device went away; close everything created on it";
            case MULTICAST_ERROR -> "the multicast group could not be joined";
            default -> null;
        };
    }
}
