#!/usr/bin/env bash
# The pvrdma-guest layer's figures, as two Markdown tables (benchmarks/compare.sh runs this last):
#   ci/rig run benchmarks/modes.sh [--sizes "64 4096"] [--iters N] [--modes "busy event adaptive"]
#                                  [--transport rdma|tcp|auto] [--nio-sizes "64 4096 65536"] [--skip-modes]
# 1. For each completion mode and size: `bin/verbs4j mode-bench` server and client, each its own
#    process on the rig's device: round trip p50/avg and the CPU seconds of each process.
# 2. `bin/verbs4j tcp-vs-nio`: the TCP fallback channel against a plain NIO socket loop on
#    loopback, same sizes and counts (it needs no RDMA device; --skip-modes runs only this).
# Raw outputs go to benchmarks/target/modes/. Build first: mvn -B -o -pl benchmarks -am -DskipTests install
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)

sizes="64 4096"
iters=5000
modes="busy event adaptive"
transport=rdma
nio_sizes="64 4096 65536"
skip_modes=0

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }

while (($#)); do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --transport) transport=$2; shift 2 ;;
    --nio-sizes) nio_sizes=$2; shift 2 ;;
    --skip-modes) skip_modes=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "modes.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

verbs4j=$root/bin/verbs4j
raw=$root/benchmarks/target/modes
mkdir -p "$raw"
device_args=()
[[ -n ${RIG_DEVICE:-} ]] && device_args+=(-d "$RIG_DEVICE")
[[ -n ${RIG_GID_INDEX:-} ]] && device_args+=(-x "$RIG_GID_INDEX")
addr=${RIG_ADDR:-127.0.0.1}
port=18710

# One mode and size: the server in the background, the client retried until the server listens.
mode_row() { # mode size
  local out=$raw/mode-$1-$2.txt args
  args=(--mode "$1" --transport "$transport" -p "$port" "${device_args[@]}")
  timeout 300 "$verbs4j" mode-bench --server --bind "$addr" "${args[@]}" > "$out.server" 2>&1 &
  local server_pid=$! attempt rc=1
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    sleep 1
    rc=0
    timeout 300 "$verbs4j" mode-bench "${args[@]}" -s "$2" -n "$iters" --warmup $((iters / 10)) "$addr" \
      > "$out" 2>&1 || rc=$?
    ((rc == 0)) && break
    grep -q "cannot connect" "$out" || break
  done
  ((rc == 0)) || kill "$server_pid" 2>/dev/null || true   # a server nobody reached would wait its full timeout
  wait "$server_pid" || echo "modes.sh: mode-bench server ($1, $2 bytes) exited with $?" >&2
  port=$((port + 1))
  grep -E '^\| (busy|event|adaptive) ' "$out" || printf '| %s | %s | %s | failed | see %s | | |\n' "$1" "$2" "$iters" "$out"
}

if ((!skip_modes)); then
  echo "| mode | bytes | iterations | RTT p50 µs | RTT avg µs | CPU s client | CPU s server |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for size in $sizes; do
    for mode in $modes; do
      mode_row "$mode" "$size"
    done
  done
  grep -h '^transport:' "$raw"/mode-*.txt | sort | uniq -c | sed 's/^/  client /' >&2 || true
  echo
fi

# Throughput wants volume: ~256 MB per pass, at least 2000 and at most 200000 messages.
echo "| bytes | TCP channel MB/s | plain NIO MB/s | ratio |"
echo "|---:|---:|---:|---:|"
for size in $nio_sizes; do
  n=$((256000000 / size))
  ((n > 200000)) && n=200000
  ((n < 2000)) && n=2000
  "$verbs4j" tcp-vs-nio -s "$size" -n "$n" > "$raw/tcp-vs-nio-$size.txt" 2>&1 || true
  grep -E '^\| [0-9]+ ' "$raw/tcp-vs-nio-$size.txt" || printf '| %s | failed | see %s | |\n' "$size" "$raw/tcp-vs-nio-$size.txt"
done
