package dev.verbs4j.verbs;

import dev.verbs4j.bindings.ibv_port_attr;
import java.lang.foreign.MemorySegment;

/**
 * {@code struct ibv_port_attr}, all of it (the exported legacy ibv_query_port fills only the old,
 * shorter struct; we go through the provider's query_port).
 */
public record PortAttributes(
        int port, int state, int maxMtu, int activeMtu, int gidTableLength, int portCapFlags, long maxMessageSize,
        int pkeyTableLength, int lid, int smLid, int lmc, int activeWidth, int activeSpeed, int physicalState,
        int linkLayer, int flags, int portCapFlags2) {

    public static final int STATE_ACTIVE = 4;
    public static final int LINK_LAYER_INFINIBAND = 1;
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

    public boolean isActive() {
        return state == STATE_ACTIVE;
    }

    /** "PORT_ACTIVE" etc., as ibv_devinfo prints it. */
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

    /** Path MTU in bytes for an IBV_MTU_* value (1 = 256 ... 5 = 4096). */
    public static int mtuBytes(int mtu) {
        return mtu >= 1 && mtu <= 5 ? 128 << mtu : 0;
    }

    public String linkLayerName() {
        return switch (linkLayer) {
            case LINK_LAYER_INFINIBAND -> "InfiniBand";
            case LINK_LAYER_ETHERNET -> "Ethernet";
            default -> "Unknown";
        };
    }
}
