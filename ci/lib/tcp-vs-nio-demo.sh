#!/usr/bin/env bash
# The demo's TCP part: verbs4j's TCP channel beside plain blocking NIO on loopback, in one JVM
# (`bin/verbs4j tcp-vs-nio`, one round at one size, after its warm-up): throughput with Nagle and
# with TCP_NODELAY, and the round trip's p50, each with its ratio to NIO's.
#   ci/lib/tcp-vs-nio-demo.sh SIZE ITERS WARMUP
set -euo pipefail
cd "$(dirname "$0")/../.."
size=$1 iters=$2 warmup=$3
echo "--- verbs4j tcp-vs-nio --mode event -s $size -n $iters --rtt-iters $iters --warmup $warmup --rounds 1"
out=$(bin/verbs4j tcp-vs-nio --mode event -s "$size" -n "$iters" --rtt-iters "$iters" --warmup "$warmup" --rounds 1)
echo
echo "=== TCP channel vs plain NIO at $size bytes, $iters messages and round trips after $warmup of warm-up"
awk 'NF == 0 { exit } { print }' <<<"$out"   # the first table: the medians (of one round)
