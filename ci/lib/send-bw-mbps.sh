#!/usr/bin/env bash
# rdma-core's own figure for a one-way stream: runs perftest's ib_send_bw as server and client on
# this machine's RDMA device and prints the client's average bandwidth in MB/s (10^6 bytes a
# second; perftest itself reports MiB/s).
#   ci/lib/send-bw-mbps.sh SIZE ITERS [PORT]
# Uses $RIG_DEVICE, $RIG_GID_INDEX and $RIG_ADDR when set (the soft-RoCE rig sets them).
# RC_PINGPONG_PIN=1 runs the server on CPU 0 and the client on CPU 1 (taskset), as
# ci/lib/rc-pingpong-usec.sh pins rdma-core's ping-pong.
set -euo pipefail
size=$1 iters=$2 port=${3:-18517}
args=(-p "$port" -s "$size" -n "$iters" -F)
[[ -n ${RIG_DEVICE:-} ]] && args+=(-d "$RIG_DEVICE")
[[ -n ${RIG_GID_INDEX:-} ]] && args+=(-x "$RIG_GID_INDEX")
source "$(dirname "$0")/cpu-pinning.sh"
pin_server=() pin_client=()
[[ ${RC_PINGPONG_PIN:-0} == 1 ]] && { pin_pairs send-bw-mbps.sh || true; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT

timeout 300 "${pin_server[@]}" ib_send_bw "${args[@]}" >"$log" 2>&1 &
server=$!
for _ in $(seq 100); do   # wait until the server listens
  ss -ltn 2>/dev/null | grep -q ":$port " && break
  sleep 0.1
done
out=$(timeout 300 "${pin_client[@]}" ib_send_bw "${args[@]}" "${RIG_ADDR:-127.0.0.1}" 2>&1) ||
  { echo "ib_send_bw failed: $out" >&2; kill "$server" 2>/dev/null; exit 1; }
wait "$server" || { echo "ib_send_bw server failed: $(cat "$log")" >&2; exit 1; }
# the result line: bytes, iterations, BW peak, BW average (MiB/s), message rate
mib=$(awk -v size="$size" '$1 == size && NF >= 5 { print $4 }' <<<"$out" | tail -n1)
[[ -n $mib ]] || { echo "no bandwidth in: $out" >&2; exit 1; }
awk -v m="$mib" 'BEGIN { printf "%.1f\n", m * 1048576 / 1e6 }'
