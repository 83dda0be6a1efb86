#!/usr/bin/env bash
# rdma-core's own figure for a ping-pong: runs ibv_rc_pingpong as server and client on this
# machine's RDMA device and prints the client's microseconds per iteration (one round trip each).
#   ci/lib/rc-pingpong-usec.sh SIZE ITERS [-e] [PORT]     (-e: sleep on CQ events instead of polling)
# Uses $RIG_DEVICE, $RIG_GID_INDEX and $RIG_ADDR when set (the soft-RoCE rig sets them).
set -euo pipefail
size=$1 iters=$2 events=${3:-} port=${4:-18516}
[[ $events == -e ]] || events=
args=(-p "$port" -s "$size" -n "$iters")
[[ -n ${RIG_DEVICE:-} ]] && args+=(-d "$RIG_DEVICE")
[[ -n ${RIG_GID_INDEX:-} ]] && args+=(-g "$RIG_GID_INDEX")
[[ -n $events ]] && args+=(-e)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
timeout 300 ibv_rc_pingpong "${args[@]}" >"$log" 2>&1 &
server=$!
for _ in $(seq 100); do   # wait until the server listens
  ss -ltn 2>/dev/null | grep -q ":$port " && break
  sleep 0.1
done
out=$(timeout 300 ibv_rc_pingpong "${args[@]}" "${RIG_ADDR:-127.0.0.1}" 2>&1) || { echo "ibv_rc_pingpong failed: $out" >&2; kill "$server" 2>/dev/null; exit 1; }
wait "$server" || { echo "ibv_rc_pingpong server failed: $(cat "$log")" >&2; exit 1; }
usec=$(sed -n 's/.* \([0-9.]*\) usec\/iter.*/\1/p' <<<"$out")
[[ -n $usec ]] || { echo "no usec/iter in: $out" >&2; exit 1; }
echo "$usec"
