# shellcheck shell=bash
# The pvrdma topology's checks (sourced by selftest.sh in L1; needs its check/pair helpers): the
# vmw_pvrdma driver in L2 probed and paired with the vmxnet3, vmw_pvrdma0 PORT_ACTIVE, and
# rdma-core's RC and UD pingpongs between L2's vmw_pvrdma0 and L1's rxe0, each side once the server.
# The emulation turns every send into a plain SEND, so these carry SEND/RECV only.

l2_dmesg() {   # the driver's own words: device version, pairing, attach
  local out; out=$(rig-l2 dmesg | grep -E 'vmw_pvrdma [0-9a-f:.]+: ') || return 1
  echo "$out"
  grep -q 'paired device to' <<<"$out" && grep -q 'attached to device' <<<"$out"
}
l2_port_active() {
  local out; out=$(rig-l2 ibv_devinfo -d vmw_pvrdma0) || { echo "$out"; return 1; }
  grep -E 'hca_id|state|active_mtu' <<<"$out"
  grep -q 'PORT_ACTIVE' <<<"$out"
}
l2_wait_listen() {   # $1 = TCP port in L2
  rig-l2 bash -c "$(declare -f wait_listen); wait_listen $1"
}
# cross TOOL "L1 ARGS" "L2 ARGS" l1|l2 [L1_GID_INDEX]: TOOL between rxe0 and vmw_pvrdma0, the named
# side the server
cross() {
  local tool=$1 a1=$2 a2=$3 srv=$4 g1=${5:-$RIG_GID_INDEX} s rc=0
  local l1=($tool -d rxe0 -g "$g1" $a1) l2=($tool -d vmw_pvrdma0 -g "$RIG_L2_GID_INDEX" $a2)
  if [[ $srv == l1 ]]; then
    timeout 90 "${l1[@]}" >/tmp/server.log 2>&1 & s=$!
    wait_listen 18515 || { echo "server did not listen"; cat /tmp/server.log; }
    timeout 90 rig-l2 "${l2[@]}" "$RIG_L2_PEER" || rc=$?
  else
    timeout 90 rig-l2 "${l2[@]}" >/tmp/server.log 2>&1 & s=$!
    l2_wait_listen 18515 || { echo "server did not listen"; cat /tmp/server.log; }
    timeout 90 "${l1[@]}" "$RIG_L2_ADDR" || rc=$?
  fi
  ((rc == 0)) || { echo "client failed (exit $rc)"; kill $s 2>/dev/null; cat /tmp/server.log
                   echo "L2's QEMU:"; grep -v rdmacm_mux /run/l2/qemu.log | tail -n 8; return 1; }
  wait $s || { echo "server failed:"; cat /tmp/server.log; return 1; }
  echo "server: $(grep -E 'iters in' /tmp/server.log | xargs)"
}
# L2 and L1 only reach each other: L1 has lo, the dummy and the tap to L2; nowhere a default route
pvrdma_no_way_out() {
  local out
  out=$(ip -o link | awk -F': ' '{print $2}' | sed 's/@.*//' | sort | xargs)
  echo "L1 netdevs: $out"; [[ $out == "l2tcp lo rig0" ]] || return 1
  out=$(rig-l2 bash -c 'ip -o link | awk -F": " "{print \$2}" | sort | xargs') || return 1
  echo "L2 netdevs: $out"; [[ $out == "lo tcp0 vmx0" ]] || return 1
  [[ -z $(ip route show table all default; ip -6 route show table all default) ]] || { echo "L1 has a default route"; return 1; }
  [[ -z $(rig-l2 bash -c 'ip route show table all default; ip -6 route show table all default') ]] || { echo "L2 has a default route"; return 1; }
}

pvrdma_selftest() {
  RIG_L2_PEER=10.76.0.1   # L1's end of the TCP path, as L2 sees it
  echo "selftest: topology pvrdma, L2 under $RIG_L2_ACCEL ready after ${RIG_L2_READY}s; rxe0 GID $RIG_GID_INDEX, vmw_pvrdma0 GID $RIG_L2_GID_INDEX"
  check "rxe0 carries L2's GIDs (::ffff:10.77.0.2, fe80::5054:ff:fe4d:2)" bash -c \
    'grep -lx -e 0000:0000:0000:0000:0000:ffff:0a4d:0002 -e fe80:0000:0000:0000:5054:00ff:fe4d:0002 /sys/class/infiniband/rxe0/ports/1/gids/* | wc -l | grep -qx 2'
  check "L2: vmw_pvrdma probed, paired with the vmxnet3, attached" l2_dmesg
  check "L2: vmw_pvrdma0 PORT_ACTIVE" l2_port_active
  check "ibv_rc_pingpong L2 client -> L1 rxe0 server" cross ibv_rc_pingpong "-n 50" "-n 50" l1
  check "ibv_rc_pingpong L1 client -> L2 vmw_pvrdma0 server" cross ibv_rc_pingpong "-n 50" "-n 50" l2
  # each UD run to a GID of L1's that no UD QP of L2 has sent to (topology-pvrdma.sh says why)
  local ud=($RIG_L1_UD_GIDS)
  check "ibv_ud_pingpong L2 client -> L1 rxe0 server" cross ibv_ud_pingpong "-s 1024 -n 50" "-s 1024 -n 50" l1 "${ud[0]}"
  check "ibv_ud_pingpong L1 client -> L2 vmw_pvrdma0 server" cross ibv_ud_pingpong "-s 1024 -n 50" "-s 1024 -n 50" l2 "${ud[1]}"
  check "no path out of L1 or L2" pvrdma_no_way_out
  check "L2: ulimit -l unlimited" rig-l2 bash -c 'test "$(ulimit -l)" = unlimited'
  check "L2: JDK 25 runs with -XX:TieredStopAtLevel=1" rig-l2 bash -c "$(declare -f jvm); jvm"
  if ((FAILS)); then echo "selftest: $FAILS check(s) FAILED (topology pvrdma)"; exit 1; fi
  echo "selftest: all checks passed (topology pvrdma)"; exit 0
}
