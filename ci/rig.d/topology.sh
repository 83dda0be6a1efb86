# shellcheck shell=bash
# In-guest network/RDMA topologies for the rig (sourced by guest-init.sh).
# topology_setup NAME builds one and exports the RIG_* variables the command sees; on failure it
# returns 1 with the reason in TOPOLOGY_ERROR.  All addresses exist only inside the guest.

TOPOLOGY_ERROR=""
t_fail() { TOPOLOGY_ERROR=$*; return 1; }

# Index of the GID of type $3 (RoCE v2 unless given) for IPv4 address $2 on device $1 (port 1).  rxe
# fills the GID table asynchronously from netdev/inet events, so wait for it (up to ~10 s under TCG).
gid_index() {
  local a b c d want i v t _ g=/sys/class/infiniband/$1/ports/1 type=${3:-RoCE v2}
  IFS=. read -r a b c d <<<"$2"
  printf -v want '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d"
  for _ in $(seq 100); do
    for i in {0..15}; do   # the table has 1024 slots; addresses sit at the front
      read -r v 2>/dev/null <"$g/gids/$i" || continue
      [[ $v == "$want" ]] || continue
      read -r t 2>/dev/null <"$g/gid_attrs/types/$i" || continue
      [[ $t == "$type" ]] && { echo "$i"; return 0; }
    done
    sleep 0.1
  done
  return 1
}

# rxe0 on a dummy netdev: every topology has it
topo_base() {
  modprobe dummy numdummies=0 || t_fail "modprobe dummy" || return   # numdummies=0: no stray dummy0
  ip link add rig0 type dummy && ip addr add 10.77.0.1/24 dev rig0 && ip link set rig0 up ||
    t_fail "cannot create rig0" || return
  modprobe -a ib_uverbs rdma_ucm ib_umad rdma_rxe || t_fail "cannot load the RDMA modules" || return
  rdma link add rxe0 type rxe netdev rig0 || t_fail "rdma link add rxe0 failed" || return
  RIG_GID_INDEX=$(gid_index rxe0 10.77.0.1) || t_fail "rxe0: no RoCE v2 GID for 10.77.0.1" || return
  export RIG_DEVICE=rxe0 RIG_ADDR=10.77.0.1 RIG_GID_INDEX
}

# rxe1 on v0 and rxe2 on v1, the two ends of a veth pair in the same netns.  Both addresses are
# local, so the kernel would route .1 <-> .2 through lo, and rxe drops packets arriving on lo.
# rxe sets the output ifindex, so per-oif rules send its frames out through the veth, and
# accept_local/rp_filter=0 let the other end take packets from a local source address.  The rules
# look up main, whose connected routes come back with a link taken down and up again (a route of
# another table through the link would be gone for good).
topo_two_hosts() {
  local i
  ip link add v0 type veth peer name v1 || t_fail "cannot create veth v0/v1" || return
  ip addr add 10.78.0.1/24 dev v0 && ip addr add 10.78.0.2/24 dev v1 || t_fail "veth addresses" || return
  for i in all default v0 v1; do
    echo 1 > /proc/sys/net/ipv4/conf/$i/accept_local; echo 0 > /proc/sys/net/ipv4/conf/$i/rp_filter
  done
  ip link set v0 up && ip link set v1 up || t_fail "veth up" || return
  ip rule add pref 10 oif v0 lookup main && ip rule add pref 11 oif v1 lookup main &&
    ip rule add pref 100 lookup local && ip rule del pref 0 || t_fail "policy routing" || return
  rdma link add rxe1 type rxe netdev v0 || t_fail "rdma link add rxe1 failed" || return
  rdma link add rxe2 type rxe netdev v1 || t_fail "rdma link add rxe2 failed" || return
  local g1 g2
  g1=$(gid_index rxe1 10.78.0.1) || t_fail "rxe1: no RoCE v2 GID for 10.78.0.1" || return
  g2=$(gid_index rxe2 10.78.0.2) || t_fail "rxe2: no RoCE v2 GID for 10.78.0.2" || return
  [[ $g1 == "$g2" ]] || t_fail "rxe1/rxe2 GID indexes differ ($g1/$g2)" || return
  export RIG_PAIR_DEVICES="rxe1 rxe2" RIG_PAIR_ADDRS="10.78.0.1 10.78.0.2" RIG_PAIR_GID_INDEX=$g1
}

# A network namespace without RDMA devices.  Exclusive mode must be set while only init_net
# exists.  (rxe on 6.1 cannot be moved into a namespace: `rdma dev set ... netns` -> EOPNOTSUPP.)
topo_no_rdma() {
  rdma system set netns exclusive || t_fail "rdma system set netns exclusive failed" || return
  ip netns add nordma || t_fail "ip netns add nordma failed" || return
  ip link add nr0 type veth peer name nr1 netns nordma || t_fail "cannot create veth nr0/nr1" || return
  ip addr add 10.79.0.1/24 dev nr0 && ip link set nr0 up &&
    ip -n nordma addr add 10.79.0.2/24 dev nr1 && ip -n nordma link set nr1 up &&
    ip -n nordma link set lo up || t_fail "nordma addresses" || return
  export RIG_NETNS=nordma RIG_NETNS_ADDR=10.79.0.2 RIG_HOST_VETH_ADDR=10.79.0.1
}

# shellcheck source=topology-netns.sh
. "$(dirname "${BASH_SOURCE[0]}")/topology-netns.sh"
# shellcheck source=topology-pvrdma.sh
. "$(dirname "${BASH_SOURCE[0]}")/topology-pvrdma.sh"

# An NVMe-oF/RDMA target (nvmet + nvmet-rdma) on rxe0, configured through configfs by hand
# (nvmetcli is not packaged).  Namespace 1 is a loop device over a 256 MiB file in a private tmpfs,
# so it keeps what is written (null_blk without memory backing would discard it).
NVMET_NQN=nqn.2026-11.dev.verbs4j:rig
NVMET_PORT=4420
topo_nvmet() {
  local cfg=/sys/kernel/config/nvmet s dev
  modprobe -a loop nvmet nvmet-rdma nvme-rdma || t_fail "cannot load loop/nvmet/nvmet-rdma/nvme-rdma" || return
  mkdir -p /run/nvmet && mount -t tmpfs -o size=300m nvmet /run/nvmet &&
    truncate -s 256M /run/nvmet/ns1.img && dev=$(losetup --find --show /run/nvmet/ns1.img) ||
    t_fail "cannot create the backing store" || return
  [[ -d $cfg ]] || mount -t configfs none /sys/kernel/config || t_fail "configfs" || return
  s=$cfg/subsystems/$NVMET_NQN
  mkdir "$s" && echo 1 >"$s/attr_allow_any_host" &&
    mkdir "$s/namespaces/1" && echo "$dev" >"$s/namespaces/1/device_path" &&
    echo 1 >"$s/namespaces/1/enable" || t_fail "nvmet subsystem $NVMET_NQN" || return
  nvmet_port 1 "$RIG_ADDR" "$s" || return
  # port 2 on rxe1's 10.78.0.1 (two-hosts' veth end v0): an initiator on rxe2 (10.78.0.2, v1) reaches
  # it across the veth, where netem and a link taken down act on its frames
  topo_two_hosts && nvmet_port 2 10.78.0.1 "$s" || return
  export RIG_NVMET_NQN=$NVMET_NQN RIG_NVMET_PORT=$NVMET_PORT RIG_NVMET_DEVICE=$dev
  export RIG_NVMET_LINK_ADDR=10.78.0.1 RIG_NVMET_LINK_HOST_ADDR=10.78.0.2 RIG_NVMET_LINK_NETDEVS="v0 v1"
}

nvmet_port() {   # $1 = configfs port id, $2 = IPv4 address, $3 = subsystem: an RDMA port on $2:4420 with it linked
  local p=/sys/kernel/config/nvmet/ports/$1
  mkdir "$p" && echo rdma >"$p/addr_trtype" && echo ipv4 >"$p/addr_adrfam" &&
    echo "$2" >"$p/addr_traddr" && echo $NVMET_PORT >"$p/addr_trsvcid" &&
    ln -s "$3" "$p/subsystems/" || t_fail "nvmet rdma port $1 on $2:$NVMET_PORT" || return
}

topology_setup() {   # $1 = single | two-hosts | no-rdma | nvmet | two-netns | two-netns-exclusive | pvrdma
  case $1 in
    pvrdma)    topo_base && topo_pvrdma ;;
    pvrdma-l2) topo_pvrdma_l2 ;;   # the L2 guest of pvrdma
    two-netns)           topo_base && topo_two_netns ;;
    two-netns-exclusive) topo_two_netns_exclusive ;;
    single)    topo_base ;;
    two-hosts) topo_base && topo_two_hosts ;;
    no-rdma)   topo_base && topo_no_rdma ;;
    nvmet)     topo_base && topo_nvmet ;;
    *)         t_fail "unknown topology '$1'" ;;
  esac
}
