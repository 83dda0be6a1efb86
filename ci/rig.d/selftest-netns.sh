# shellcheck shell=bash
# Self-test of the topologies two-netns and two-netns-exclusive (sourced by selftest.sh, which
# provides check/ok/bad/pair/no_way_out/jvm; exits with the result).  Each side of a pair runs in
# its namespace through `ip netns exec`.

# devices listed by ibv_devices in namespace $1 (- = the initial one)
ns_devices() { if [[ $1 == - ]]; then devices; else ip netns exec "$1" bash -c "$(declare -f devices); devices"; fi; }
expect_ns_devices() {   # $1 = netns or -, $2 = expected sorted list
  local got; got=$(ns_devices "$1")
  [[ $got == "$2" ]] && echo "${1/-/init}: ${got:-none}" || { echo "expected '$2' in ${1/-/init}, got '$got'"; return 1; }
}
rxe_socket_in() { ip netns exec "$1" ss -Hlun 'sport = :4791' | grep -q . && echo "UDP 4791 listening in $1"; }
veth_counter() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"; }

# ns_pair PORT "SERVER CMD" "CLIENT CMD": server in nsa, client in nsb; waits for the server's
# TCP listener inside nsa (/proc/net/tcp is per namespace)
ns_pair() {
  local port=$1 s
  timeout 60 ip netns exec nsa $2 >/tmp/server.log 2>&1 & s=$!
  if [[ $port == - ]]; then sleep 1   # rping's listener is an rdma_cm id, not a TCP port
  else ip netns exec nsa bash -c "$(declare -f wait_listen); wait_listen $port" || { echo "server did not listen"; cat /tmp/server.log; }; fi
  timeout 60 ip netns exec nsb $3 || { echo "client failed (exit $?)"; kill $s 2>/dev/null; cat /tmp/server.log; return 1; }
  wait $s || { echo "server failed:"; cat /tmp/server.log; return 1; }
}

# $1 = what, rest = ns_pair args: the RoCEv2 frames must cross the veth nsb:n1 -> nsa:n0
ns_pair_crossing() {
  local tx0 rx0 tx1 rx1 min=$1; shift
  tx0=$(veth_counter nsb n1 tx_packets); rx0=$(veth_counter nsa n0 rx_packets)
  ns_pair "$@" || return 1
  tx1=$(veth_counter nsb n1 tx_packets); rx1=$(veth_counter nsa n0 rx_packets)
  echo "n1 (nsb) tx_packets +$((tx1 - tx0)), n0 (nsa) rx_packets +$((rx1 - rx0))"
  ((tx1 - tx0 >= min && rx1 - rx0 >= min))
}

netns_pair_selftest() {
  local g=${RIG_NETNS_PAIR_GID_INDEX:?} mode=${RIG_NETNS_MODE:?}
  echo "selftest: topology $T, rxea/rxeb RoCE v2 IPv4 GID index $g, netns mode $mode, kernel $(uname -r)"
  check "rdma netns mode $mode" bash -c "rdma system | grep -q 'netns $mode'"
  if [[ $mode == shared ]]; then
    check "devices in init, nsa, nsb: rxe0 rxea rxeb" bash -c "$(declare -f devices ns_devices expect_ns_devices);
      expect_ns_devices - 'rxe0 rxea rxeb' && expect_ns_devices nsa 'rxe0 rxea rxeb' && expect_ns_devices nsb 'rxe0 rxea rxeb'"
  else
    check "devices: none in init, rxea in nsa, rxeb in nsb" bash -c "$(declare -f devices ns_devices expect_ns_devices);
      expect_ns_devices - '' && expect_ns_devices nsa rxea && expect_ns_devices nsb rxeb"
  fi
  check "rxe UDP socket in nsa" rxe_socket_in nsa
  check "rxe UDP socket in nsb" rxe_socket_in nsb
  check "ibv_rc_pingpong rxeb (nsb) -> rxea (nsa) across veth n1->n0" ns_pair_crossing 500 18515 \
    "ibv_rc_pingpong -d rxea -g $g -n 500" "ibv_rc_pingpong -d rxeb -g $g -n 500 10.82.0.1"
  check "ibv_ud_pingpong rxeb (nsb) -> rxea (nsa) across veth n1->n0" ns_pair_crossing 200 18515 \
    "ibv_ud_pingpong -d rxea -g $g -s 1024 -n 200" "ibv_ud_pingpong -d rxeb -g $g -s 1024 -n 200 10.82.0.1"
  if [[ $mode == shared ]]; then
    check "rping nsb -> nsa 10.82.0.1 (rdma_cm)" ns_pair - "rping -s -a 10.82.0.1 -C 10" "rping -c -a 10.82.0.1 -C 10"
  fi
  check "no NIC but lo/dummy/veth, no default route" no_way_out
  check "ulimit -l unlimited" test "$(ulimit -l)" = unlimited
  check "JDK 25 runs with -XX:TieredStopAtLevel=1" jvm
  if ((FAILS)); then echo "selftest: $FAILS check(s) FAILED (topology $T)"; exit 1; fi
  echo "selftest: all checks passed (topology $T)"
  exit 0
}
