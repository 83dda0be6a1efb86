#!/usr/bin/env bash
# The demo's first part, on this host: `bin/verbs4j pingpong` between two processes over the
# shared-memory channel and over the TCP channel (loopback), each transport forced, in EVENT and
# ADAPTIVE mode (BUSY's two spinning threads per process would take both CPUs of a small machine
# from each other), after the same warm-up; then a table of the two side by side.
#   ci/lib/shm-vs-tcp-pingpong.sh SIZE ITERS WARMUP
set -euo pipefail
cd "$(dirname "$0")/../.."
size=$1 iters=$2 warmup=$3
declare -A p50 p99
for mode in event adaptive; do
  for transport in shm tcp; do
    echo "--- verbs4j pingpong --transport $transport --mode $mode -s $size -n $iters --warmup $warmup"
    out=$(ci/lib/pingpong-pair.sh 127.0.0.1 --transport "$transport" --mode "$mode" -s "$size" -n "$iters" \
      --warmup "$warmup")
    sed '/^--- server/q' <<<"$out" | grep -E '^(transport|cold|warm-up|latency|throughput):' || { echo "$out"; exit 1; }
    p50[$transport.$mode]=$(sed -n 's/^latency:.* p50 \([0-9.]*\) us.*/\1/p' <<<"$out")
    p99[$transport.$mode]=$(sed -n 's/^latency:.* p99 \([0-9.]*\) us.*/\1/p' <<<"$out")
  done
done
echo
echo "=== round trip at $size bytes, two processes on this host, $iters round trips after $warmup of warm-up: shm channel vs TCP channel"
printf '%-8s %12s %12s %12s %12s %16s\n' mode "shm p50 us" "shm p99 us" "tcp p50 us" "tcp p99 us" "tcp p50 / shm"
for mode in event adaptive; do
  printf '%-8s %12s %12s %12s %12s %15sx\n' "$mode" "${p50[shm.$mode]}" "${p99[shm.$mode]}" "${p50[tcp.$mode]}" \
    "${p99[tcp.$mode]}" "$(awk -v a="${p50[tcp.$mode]}" -v b="${p50[shm.$mode]}" 'BEGIN { printf "%.1f", a / b }')"
done
