# shellcheck shell=bash
# Topologies two-netns and two-netns-exclusive (sourced by topology.sh): network namespaces nsa
# and nsb joined by a veth pair, each with its own rxe device.  Needs a kernel whose rxe opens its
# UDP socket in the namespace it is created from (Linux >= 7.1; the rig boots trixie-backports'
# 7.x for these topologies); moving an rxe device between namespaces needs >= 7.3.

NETNS_PAIR=(nsa nsb); NETNS_VETH=(n0 n1); NETNS_DEVS=(rxea rxeb); NETNS_ADDRS=(10.82.0.1 10.82.0.2)

# the namespaces, the veth pair between them, and lo up in each
netns_pair_links() {
  local i ns
  for i in 0 1; do ip netns add "${NETNS_PAIR[i]}" || t_fail "ip netns add ${NETNS_PAIR[i]} failed" || return; done
  ip link add n0 netns nsa type veth peer name n1 netns nsb || t_fail "cannot create veth n0/n1" || return
  for i in 0 1; do
    ns=${NETNS_PAIR[i]}
    ip -n "$ns" addr add "${NETNS_ADDRS[i]}/24" dev "${NETNS_VETH[i]}" &&
      ip -n "$ns" link set "${NETNS_VETH[i]}" up && ip -n "$ns" link set lo up ||
      t_fail "addresses in $ns" || return
  done
}

# rxe created from inside each namespace: its UDP 4791 socket lives there (the feature guard)
netns_pair_rxe() {
  local i ns
  for i in 0 1; do
    ns=${NETNS_PAIR[i]}
    ip netns exec "$ns" rdma link add "${NETNS_DEVS[i]}" type rxe netdev "${NETNS_VETH[i]}" ||
      t_fail "rdma link add ${NETNS_DEVS[i]} in $ns failed" || return
    [[ -n $(ip netns exec "$ns" ss -Hlun 'sport = :4791') ]] ||
      t_fail "no rxe UDP socket in $ns: kernel $(uname -r) has no per-netns rxe (needs >= 7.1)" || return
  done
}

# GID index of the pair's RoCE v2 IPv4 GIDs, read where each device is visible ($1 = exclusive?)
netns_pair_gid_index() {
  local i g=() ns
  for i in 0 1; do
    ns=${NETNS_PAIR[i]}
    g[i]=$(ip netns exec "$ns" bash -c "$(declare -f gid_index); gid_index ${NETNS_DEVS[i]} ${NETNS_ADDRS[i]}") ||
      t_fail "${NETNS_DEVS[i]}: no RoCE v2 GID for ${NETNS_ADDRS[i]} (seen from $ns)" || return
  done
  [[ ${g[0]} == "${g[1]}" ]] || t_fail "rxea/rxeb GID indexes differ (${g[0]}/${g[1]})" || return
  echo "${g[0]}"
}

netns_pair_export() {   # $1 = shared | exclusive
  local g; g=$(netns_pair_gid_index) || return
  export RIG_NETNS_PAIR="${NETNS_PAIR[*]}" RIG_NETNS_PAIR_DEVICES="${NETNS_DEVS[*]}" \
    RIG_NETNS_PAIR_ADDRS="${NETNS_ADDRS[*]}" RIG_NETNS_PAIR_GID_INDEX=$g RIG_NETNS_MODE=$1
}

# shared netns mode (the default): every device is visible in every namespace
topo_two_netns() {
  netns_pair_links && netns_pair_rxe && netns_pair_export shared
}

# exclusive netns mode, each device moved into its namespace; the initial namespace has none.
# The mode must be set while only init_net exists.  A device created from a namespace registers
# in init_net, so it is moved afterwards, and after the move the kernel cannot recreate QP1 for
# it ("GSI QP exists for port 1"): plain verbs work there, rdma_cm does not.
topo_two_netns_exclusive() {
  local i
  modprobe -a ib_uverbs rdma_ucm ib_umad rdma_rxe || t_fail "cannot load the RDMA modules" || return
  rdma system set netns exclusive || t_fail "rdma system set netns exclusive failed" || return
  netns_pair_links && netns_pair_rxe || return
  for i in 0 1; do
    rdma dev set "${NETNS_DEVS[i]}" netns "${NETNS_PAIR[i]}" ||
      t_fail "rdma dev set ${NETNS_DEVS[i]} netns ${NETNS_PAIR[i]} failed (moving rxe needs >= 7.3)" || return
  done
  netns_pair_export exclusive
}
