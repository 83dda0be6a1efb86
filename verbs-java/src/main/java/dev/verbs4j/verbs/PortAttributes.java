package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_port_attr;
import java.lang.foreign.MemorySegment;

/**
 * {@code struct ibv_port_attr}, all of it (the exported legacy ibv_query_port fills only the old,
 * shorter struct; this goes through the provider's query_port). A snapshot from
 * {@link Context#queryPort(int)}; an immutable value, safe to share.
 *
 * @param port            the port number, from 1
 * @param state           IBV_PORT_* state; {@link #STATE_ACTIVE} when usable (see {@link #stateName()})
 * @param maxMtu          largest MTU the port supports, an IBV_MTU_* value (see {@link #mtuBytes(int)})
 * @param activeMtu       MTU in use, an IBV_MTU_* value; for RoCE derived from the netdev's MTU
 * @param gidTableLength  entries in the GID table
 * @param portCapFlags    IBV_PORT_* capability bits
 * @param maxMessageSize  largest message in bytes (uint32)
 * @param pkeyTableLength entries in the P_Key table
 * @param lid             the port's LID (InfiniBand; 0 on RoCE)
 * @param smLid           the subnet manager's LID (InfiniBand)
 * @param lmc             LID mask control (InfiniBand)
 * @param activeWidth     link width code (1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x)
 * @param activeSpeed     link speed code (1 = SDR ... 64 = HDR, as ibv_devinfo decodes it)
 * @param physicalState   physical link state (5 = LinkUp)
 * @param linkLayer       {@link #LINK_LAYER_INFINIBAND} or {@link #LINK_LAYER_ETHERNET} (RoCE)
 * @param flags           IBV_QPF_* port flags (bit 0: GRH required)
 * @param portCapFlags2   IBV_PORT_*2 extended capability bits
 */
public record PortAttributes(
        int port, int state, int maxMtu, int activeMtu, int gidTableLength, int portCapFlags, long maxMessageSize,
        int pkeyTableLength, int lid, int smLid, int lmc, int activeWidth, int activeSpeed, int physicalState,
        int linkLayer, int flags, int portCapFlags2) {

    /** IBV_PORT_ACTIVE: the port can carry traffic. */
    public static final int STATE_ACTIVE = 4;
    /** IBV_LINK_LAYER_INFINIBAND. */
    public static final int LINK_LAYER_INFINIBAND = 1;
    /** IBV_LINK_LAYER_ETHERNET: RoCE, where addressing is by GID, not LID. */
    public static final int LINK_LAYER_ETHERNET = 2;

    static PortAttributes from(int port, MemorySegment a) {
        return new PortAttributes(port, ibv_port_attr.state(a), ibv_port_attr.max_mtu(a), ibv_port_attr.active_mtu(a),
                ibv_port_attr.gid_tbl_len(a), ibv_port_attr.port_cap_flags(a),
                Integer.toUnsignedLong(ibv_port_attr.max_msg_sz(a)),
                Short.toUnsignedInt(ibv_port_attr.pkey_tbl_len(a)), Short.toUnsignedInt(ibv_port_attr.lid(a)),
                Short.toUnsignedInt(ibv_port_attr.sm_lid(a)), Byte.toUnsignedInt(ibv_port_attr.lmc(a)),
                Byte.toUnsignedInt(ibv_port_attr.active_width(a)), Byte.toUnsignedInt(ibv_port_attr.active_speed(a)),
                Byte.toUnsignedInt(ibv_port_attr.phys_state(a)), Byte.toUnsignedInt(ibv_port_attr.link_layer(a)),
                Byte.toUnsignedInt(ibv_port_attr.flags(a)), Short.toUnsignedInt(ibv_port_attr.port_cap_flags2(a)));
    }

    /**
     * Whether the port was active when queried.
     *
     * @return true when {@code state} is {@link #STATE_ACTIVE}
     */
    public boolean isActive() {
        return state == STATE_ACTIVE;
    }

    /**
     * The state as ibv_devinfo prints it.
     *
     * @return e.g. "PORT_ACTIVE", or "PORT_STATE_n" for an unknown value
     */
    public String stateName() {
        return switch (state) {
            case 0 -> "PORT_NOP";
            case 1 -> "PORT_DOWN";
            case 2 -> "PORT_INIT";
            case 3 -> "PORT_ARMED";
            case 4 -> "PORT_ACTIVE";
            case 5 -> "PORT_ACTIVE_DEFER";
            default -> "PORT_STATE_" + state;
        };
    }

    /**
     * Path MTU in bytes for an IBV_MTU_* value (1 = 256 ... 5 = 4096).
     *
     * @param mtu an IBV_MTU_* value
     * @return the MTU in bytes, or 0 for a value outside 1..5
     */
    public static int mtuBytes(int mtu) {
        return mtu >= 1 && mtu <= 5 ? 128 << mtu : 0;
    }

    /**
     * The link layer as ibv_devinfo prints it.
     *
     * @return "InfiniBand", "Ethernet" or "Unknown"
     */
    public String linkLayerName() {
        return switch (linkLayer) {
            case LINK_LAYER_INFINIBAND -> "InfiniBand";
            case LINK_LAYER_ETHERNET -> "Ethernet";
            default -> "Unknown";
        };
    }
}
