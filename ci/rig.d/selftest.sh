#!/bin/bash
# Rig self-test, run inside the guest by `ci/rig selftest`: checks the topology named by
# RIG_TOPOLOGY with rdma-core's own tools.  Prints one line per check; exits 1 if any failed.
set -uo pipefail

FAILS=0
ok()  { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; FAILS=$((FAILS + 1)); }
# check DESCRIPTION CMD...: run CMD, show its output's tail when it fails (last line when it passes)
check() {
  local what=$1 out; shift
  if out=$("$@" 2>&1); then out=$(grep -v '^[- ]*$' <<<"$out" | tail -n 1 | xargs); ok "$what${out:+  [$out]}"
  else bad "$what"; sed 's/^/       | /' <<<"$out" | tail -n 25; fi
}

devices() { ibv_devices | awk 'NR > 2 {print $1}' | sort | xargs; }
expect_devices() {   # $1 = expected sorted list
  local got; got=$(devices)
  [[ $got == "$1" ]] || { echo "expected devices '$1', got '$got'"; ibv_devices; return 1; }
}
# every populated GID of every device is RoCE v2 (rxe on 6.1 only does v2)
gids_roce_v2() {
  local d i v t n=0
  for d in /sys/class/infiniband/*; do
    for i in {0..15}; do
      read -r v <"$d/ports/1/gids/$i"
      [[ $v == 0000:0000:0000:0000:0000:0000:0000:0000 ]] && continue
      read -r t <"$d/ports/1/gid_attrs/types/$i"
      echo "${d##*/} gid $i $v $t"
      [[ $t == "RoCE v2" ]] || return 1
      n=$((n + 1))
    done
  done
  echo "$n GIDs, all RoCE v2"
  ((n > 0))
}

wait_listen() {   # $1 = TCP port; the pingpong tools exchange QP info over TCP first
  local hex i; printf -v hex ':%04X ' "$1"
  for i in $(seq 100); do
    grep -q "${hex}[0-9A-F:]* 0A " /proc/net/tcp /proc/net/tcp6 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
# pair PORT "SERVER CMD" "CLIENT CMD": run both sides, fail if either side fails
pair() {
  local port=$1 s; local -a srv cli
  read -ra srv <<<"$2"; read -ra cli <<<"$3"
  timeout 60 "${srv[@]}" >/tmp/server.log 2>&1 & s=$!
  if [[ $port == - ]]; then sleep 1; else wait_listen "$port" || { echo "server did not listen"; cat /tmp/server.log; }; fi
  timeout 60 "${cli[@]}" || { echo "client failed (exit $?)"; kill $s 2>/dev/null; cat /tmp/server.log; return 1; }
  wait $s || { echo "server failed:"; cat /tmp/server.log; return 1; }
}

rping_pair() {   # $1 = address; rdma_cm connection setup + 10 pings with data verification
  local out
  pair - "rping -s -a $1 -C 10" "rping -c -a $1 -C 10 -v" >/tmp/rping.log 2>&1 || { cat /tmp/rping.log; return 1; }
  out=$(grep -c 'ping data' /tmp/rping.log)
  ((out == 10)) || { echo "expected 10 verified pings, got $out"; cat /tmp/rping.log; return 1; }
}

# no NIC except lo/dummy/veth and no default route: the guest has no way out
no_way_out() {
  local n kind bad=0 f all=""
  for n in /sys/class/net/*; do
    all+=" ${n##*/}"
    n=${n##*/}; [[ $n == lo ]] && continue
    kind=$(ip -d -o link show dev "$n" | grep -oE ' (dummy|veth) ' | xargs)
    echo "netdev $n: ${kind:-OTHER}"
    [[ -n $kind ]] || bad=1
  done
  for f in /sys/bus/pci/devices/*/class; do   # no network controller, even one without a driver
    [[ $(cat "$f") == 0x02* ]] && { echo "PCI network device ${f%/class}"; bad=1; }
  done
  [[ -z $(ip -4 route show table all default; ip -6 route show table all default) ]] ||
    { echo "default route present:"; ip route show table all default; bad=1; }
  echo "netdevs:$all"
  return $bad
}

jvm() {
  local out
  out=$("$JAVA_HOME/bin/java" -XX:+PrintFlagsFinal -version 2>&1) || { echo "$out" | tail; return 1; }
  grep -E 'version "|Picked up' <<<"$out"
  grep -q 'version "25' <<<"$out" || { echo "not JDK 25 ($JAVA_HOME)"; return 1; }
  [[ " ${JAVA_TOOL_OPTIONS:-} " == *" -XX:TieredStopAtLevel=1 "* ]] || { echo "JAVA_TOOL_OPTIONS='${JAVA_TOOL_OPTIONS:-}'"; return 1; }
  grep -qE 'intx TieredStopAtLevel += 1 ' <<<"$out" || { grep TieredStopAtLevel <<<"$out"; return 1; }
}

veth_crossing() {   # rc_pingpong rxe2 -> rxe1 must put the RoCEv2 frames on the veth
  local tx0 tx1 rx0 rx1 g=$RIG_PAIR_GID_INDEX
  read -r tx0 </sys/class/net/v1/statistics/tx_packets; read -r rx0 </sys/class/net/v0/statistics/rx_packets
  pair 18515 "ibv_rc_pingpong -d rxe1 -g $g -n 500" "ibv_rc_pingpong -d rxe2 -g $g -n 500 10.78.0.1" || return 1
  read -r tx1 </sys/class/net/v1/statistics/tx_packets; read -r rx1 </sys/class/net/v0/statistics/rx_packets
  echo "v1 tx_packets +$((tx1 - tx0)), v0 rx_packets +$((rx1 - rx0))"
  ((tx1 - tx0 >= 500 && rx1 - rx0 >= 500))
}

netns_tcp() {   # plain TCP init netns -> nordma across the veth (busybox nc listens in nordma)
  local msg="rig-$RANDOM" s
  timeout 20 ip netns exec nordma busybox nc -l -p 5555 >/tmp/nc.out & s=$!
  ip netns exec nordma bash -c "$(declare -f wait_listen); wait_listen 5555" || { echo "nc did not listen"; return 1; }
  echo "$msg" > /dev/tcp/10.79.0.2/5555 || return 1
  wait $s; [[ $(cat /tmp/nc.out) == "$msg" ]] || { echo "received '$(cat /tmp/nc.out)'"; return 1; }
}

# the kernel initiator (nvme-rdma) against the nvmet target: discovery lists our subsystem, connect
# gives a block device, 1 MiB written with O_DIRECT reads back equal after a reconnect
NVME_HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:00000000-0000-0000-0000-00000000f00d
nvmet_discover() {   # $1 = the target's address, [$2 = the host's (nvme --host-traddr)]
  local out; out=$(nvme discover -t rdma -a "$1" ${2:+-w "$2"} -s "$RIG_NVMET_PORT" -q $NVME_HOSTNQN) || return 1
  echo "$out" | grep -E 'subnqn|trsvcid'
  grep -q "subnqn: *$RIG_NVMET_NQN\$" <<<"$out" && grep -q 'trsvcid: *4420' <<<"$out"
}
nvmet_block_dev() {   # /dev/nvmeXnY of our subsystem, once the kernel has created it
  local b i
  for i in $(seq 100); do
    for b in /sys/block/nvme*n*; do
      [[ -e $b && ${b##*/} != *c*n* && $(cat "$b/device/subsysnqn" 2>/dev/null) == "$RIG_NVMET_NQN" ]] &&
        { echo "/dev/${b##*/}"; return 0; }
    done
    sleep 0.1
  done
  return 1
}
nvmet_connect() { nvme connect -t rdma -a "$RIG_ADDR" -s "$RIG_NVMET_PORT" -n "$RIG_NVMET_NQN" -q $NVME_HOSTNQN >/dev/null && nvmet_block_dev; }
nvmet_dd_round_trip() {
  local dev
  head -c 1M /dev/urandom >/tmp/pattern
  dev=$(nvmet_connect) || { echo "nvme connect gave no block device"; return 1; }
  dd if=/tmp/pattern of="$dev" bs=64k oflag=direct status=none || return 1
  nvme disconnect -n "$RIG_NVMET_NQN" >/dev/null || return 1
  dev=$(nvmet_connect) || { echo "reconnect gave no block device"; return 1; }
  dd if="$dev" of=/tmp/back bs=64k count=16 iflag=direct status=none || return 1
  nvme disconnect -n "$RIG_NVMET_NQN" >/dev/null || return 1
  cmp /tmp/pattern /tmp/back && echo "$dev: 1 MiB written, reconnected, read back equal"
}

T=${RIG_TOPOLOGY:?not in a rig guest}
# shellcheck source=selftest-netns.sh
[[ $T == two-netns* ]] && . "$(dirname "${BASH_SOURCE[0]}")/selftest-netns.sh" && netns_pair_selftest
# shellcheck source=selftest-pvrdma.sh
[[ $T == pvrdma ]] && . "$(dirname "${BASH_SOURCE[0]}")/selftest-pvrdma.sh" && pvrdma_selftest
G=${RIG_GID_INDEX:?}
echo "selftest: topology $T, rxe0 RoCE v2 IPv4 GID index $G, kernel $(uname -r)"
case $T in
  single)    check "devices: rxe0" expect_devices "rxe0" ;;
  two-hosts) check "devices: rxe0 rxe1 rxe2" expect_devices "rxe0 rxe1 rxe2" ;;
  no-rdma)   check "devices in init netns: rxe0" expect_devices "rxe0" ;;
  nvmet)     check "devices: rxe0 rxe1 rxe2" expect_devices "rxe0 rxe1 rxe2" ;;
esac
check "GID types are RoCE v2" gids_roce_v2
check "ibv_rc_pingpong rxe0" pair 18515 "ibv_rc_pingpong -d rxe0 -g $G -n 200" "ibv_rc_pingpong -d rxe0 -g $G -n 200 $RIG_ADDR"
check "ibv_ud_pingpong rxe0" pair 18515 "ibv_ud_pingpong -d rxe0 -g $G -s 1024 -n 200" "ibv_ud_pingpong -d rxe0 -g $G -s 1024 -n 200 $RIG_ADDR"
check "ib_send_lat rxe0" pair 18515 "ib_send_lat -d rxe0 -x $G -F -n 200" "ib_send_lat -d rxe0 -x $G -F -n 200 $RIG_ADDR"
check "rping -C 10 on $RIG_ADDR" rping_pair "$RIG_ADDR"
check "no NIC but lo/dummy/veth, no default route" no_way_out
check "ulimit -l unlimited" test "$(ulimit -l)" = unlimited
check "JDK 25 runs with -XX:TieredStopAtLevel=1" jvm
if [[ $T == two-hosts ]]; then
  check "rxe1/rxe2 distinct GIDs" test "$(cat /sys/class/infiniband/rxe1/ports/1/gids/$RIG_PAIR_GID_INDEX)" != \
                                       "$(cat /sys/class/infiniband/rxe2/ports/1/gids/$RIG_PAIR_GID_INDEX)"
  check "ibv_rc_pingpong rxe2 -> rxe1 across veth v1->v0" veth_crossing
  check "rping 10.78.0.2 -> 10.78.0.1" pair - "rping -s -a 10.78.0.1 -C 10" "rping -c -a 10.78.0.1 -I 10.78.0.2 -C 10"
fi
if [[ $T == no-rdma ]]; then
  check "rdma netns mode exclusive" bash -c 'rdma system | grep -q "netns exclusive"'
  check "no RDMA device inside netns nordma" bash -c 'out=$(ip netns exec nordma ibv_devices | awk "NR > 2"); echo "$out"; [[ -z $out ]]'
  check "TCP 10.79.0.1 -> 10.79.0.2 (nordma) across the veth" netns_tcp
fi
if [[ $T == nvmet ]]; then
  check "nvme discover lists $RIG_NVMET_NQN on 4420" nvmet_discover "$RIG_ADDR"
  check "nvme discover on $RIG_NVMET_LINK_ADDR from $RIG_NVMET_LINK_HOST_ADDR (across the veth)" \
    nvmet_discover "$RIG_NVMET_LINK_ADDR" "$RIG_NVMET_LINK_HOST_ADDR"
  check "nvme connect + dd round trip (O_DIRECT, reconnect between)" nvmet_dd_round_trip
fi
if ((FAILS)); then echo "selftest: $FAILS check(s) FAILED (topology $T)"; exit 1; fi
echo "selftest: all checks passed (topology $T)"
