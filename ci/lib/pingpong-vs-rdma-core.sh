#!/usr/bin/env bash
# The demo's RDMA half: `bin/verbs4j pingpong` in each completion mode, then rdma-core's own
# ibv_rc_pingpong (polling) and ibv_rc_pingpong -e (sleeping on CQ events) at the same size and
# count on the same device in the same boot, and a table of our round trip next to theirs. Ours
# are measured after WARMUP round trips (default 2000) that are reported and not counted (the
# JVM compiles the path meanwhile; under emulation the first round trips are interpreted), as
# rdma-core's are after an untimed first run (ci/lib/rc-pingpong-usec.sh).
#   ci/lib/pingpong-vs-rdma-core.sh ADDRESS SIZE ITERS [WARMUP]
set -euo pipefail
cd "$(dirname "$0")/../.."
addr=$1 size=$2 iters=$3 warmup=${4:-2000}
declare -A p50 p99
for mode in busy event adaptive; do
  echo "--- verbs4j pingpong --transport rdma --mode $mode -s $size -n $iters --warmup $warmup"
  out=$(ci/lib/pingpong-pair.sh "$addr" --transport rdma --mode "$mode" -s "$size" -n "$iters" --warmup "$warmup")
  sed '/^--- server/q' <<<"$out" | grep -E '^(transport|cold|warm-up|latency|throughput):' || { echo "$out"; exit 1; }
  p50[$mode]=$(sed -n 's/^latency:.* p50 \([0-9.]*\) us.*/\1/p' <<<"$out")
  p99[$mode]=$(sed -n 's/^latency:.* p99 \([0-9.]*\) us.*/\1/p' <<<"$out")
done
echo "--- rdma-core: ibv_rc_pingpong -s $size -n $iters, then with -e"
busy=$(ci/lib/rc-pingpong-usec.sh "$size" "$iters")
event=$(ci/lib/rc-pingpong-usec.sh "$size" "$iters" -e)
echo "ibv_rc_pingpong $busy usec/iter, ibv_rc_pingpong -e $event usec/iter"
echo
echo "=== round trip at $size bytes, $iters iterations (verbs4j's after $warmup of warm-up), same boot: verbs4j's RDMA channel vs rdma-core (C)"
printf '%-9s %14s %14s   %-22s %10s %8s\n' mode "verbs4j p50 us" "verbs4j p99 us" "rdma-core" "us/iter" ratio
for mode in busy event adaptive; do
  # busy and adaptive poll while traffic flows: rdma-core's polling pingpong; event sleeps: its -e
  if [[ $mode == event ]]; then ref=$event tool="ibv_rc_pingpong -e"; else ref=$busy tool="ibv_rc_pingpong"; fi
  printf '%-9s %14s %14s   %-22s %10s %7sx\n' "$mode" "${p50[$mode]}" "${p99[$mode]}" "$tool" "$ref" \
    "$(awk -v a="${p50[$mode]}" -v b="$ref" 'BEGIN { printf "%.2f", a / b }')"
done
