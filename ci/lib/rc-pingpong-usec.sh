#!/usr/bin/env bash
# rdma-core's own figure for a ping-pong: runs ibv_rc_pingpong as server and client on this
# machine's RDMA device and prints the client's microseconds per iteration (one round trip each).
#   ci/lib/rc-pingpong-usec.sh SIZE ITERS [-e] [PORT]     (-e: sleep on CQ events instead of polling)
# Uses $RIG_DEVICE, $RIG_GID_INDEX and $RIG_ADDR when set (the soft-RoCE rig sets them).
# RC_PINGPONG_PIN=1 runs the server on CPU 0 and the client on CPU 1 (taskset), as
# benchmarks/modes.sh does with its own pairs.
set -euo pipefail
size=$1 iters=$2 events=${3:-} port=${4:-18516}
[[ $events == -e ]] || events=
args=(-p "$port" -s "$size")
[[ -n ${RIG_DEVICE:-} ]] && args+=(-d "$RIG_DEVICE")
[[ -n ${RIG_GID_INDEX:-} ]] && args+=(-g "$RIG_GID_INDEX")
[[ -n $events ]] && args+=(-e)
source "$(dirname "$0")/cpu-pinning.sh"
pin_server=() pin_client=()
[[ ${RC_PINGPONG_PIN:-0} == 1 ]] && { pin_pairs rc-pingpong-usec.sh || true; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT

pair() { # ITERS: server and client; the client's output in $out
  timeout 300 "${pin_server[@]}" ibv_rc_pingpong "${args[@]}" -n "$1" >"$log" 2>&1 &
  local server=$!
  for _ in $(seq 100); do   # wait until the server listens
    ss -ltn 2>/dev/null | grep -q ":$port " && break
    sleep 0.1
  done
  out=$(timeout 300 "${pin_client[@]}" ibv_rc_pingpong "${args[@]}" -n "$1" "${RIG_ADDR:-127.0.0.1}" 2>&1) ||
    { echo "ibv_rc_pingpong failed: $out" >&2; kill "$server" 2>/dev/null; exit 1; }
  wait "$server" || { echo "ibv_rc_pingpong server failed: $(cat "$log")" >&2; exit 1; }
}

# An untimed first pair: under emulation a program's first run after boot is slower (cold caches of
# translated code), and verbs4j's JVMs get their own warm-up iterations.
pair 100
pair "$iters"
usec=$(sed -n 's/.* \([0-9.]*\) usec\/iter.*/\1/p' <<<"$out")
[[ -n $usec ]] || { echo "no usec/iter in: $out" >&2; exit 1; }
echo "$usec"
