#!/usr/bin/env bash
# Where a mode-bench round trip spends its CPU, thread by thread (needs no profiler in the guest):
#   ci/rig run --selftest benchmarks/thread-cpu.sh [--mode event] [--thread app] [-s 64] [-n 12000]
#        [--warmup 20000] [--every 2]
# Runs one `bin/verbs4j mode-bench` server and client over RDMA (C2 alone, as modes.sh's default),
# reads /proc/PID/task/*/stat of both JVMs every --every seconds, and prints, for each side, the
# CPU ticks (1/100 s) of its busiest threads in each interval, as user/system. The client reports
# its round trips last; the intervals just before it exits are the measured ones, the first ones
# are the JVM's start and the warm-up (C2 compiles for a minute or more under emulation: its
# column shows when it is done). One `cat` per side and interval is all the sampling costs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=event thread=app size=64 iters=12000 warmup=20000 every=2
while (($#)); do
  case $1 in
    --mode) mode=$2; shift 2 ;;
    --thread) thread=$2; shift 2 ;;
    -s) size=$2; shift 2 ;;
    -n) iters=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "thread-cpu.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
export JAVA_TOOL_OPTIONS="$(sed -E 's/-XX:TieredStopAtLevel=[0-9]+//g; s/-XX:[+-]TieredCompilation//g' \
  <<< "${JAVA_TOOL_OPTIONS:-}") -XX:-TieredCompilation"
raw=$root/benchmarks/target/thread-cpu
rm -rf "$raw"
mkdir -p "$raw"
device_args=()
[[ -n ${RIG_DEVICE:-} ]] && device_args+=(-d "$RIG_DEVICE")
[[ -n ${RIG_GID_INDEX:-} ]] && device_args+=(-x "$RIG_GID_INDEX")
addr=${RIG_ADDR:-127.0.0.1} port=18790
args=(--mode "$mode" --thread "$thread" --transport rdma -p "$port" "${device_args[@]}")

# bin/verbs4j execs the JVM, so these PIDs are the JVMs' own
"$root/bin/verbs4j" mode-bench --server --bind "$addr" "${args[@]}" > "$raw/server.txt" 2>&1 &
server=$!
for _ in $(seq 240); do ss -ltn | grep -q ":$port " && break; sleep 0.5; done   # a JVM starts slowly here
"$root/bin/verbs4j" mode-bench "${args[@]}" -s "$size" -n "$iters" --warmup "$warmup" "$addr" \
  > "$raw/client.txt" 2>&1 &
client=$!
i=0
while kill -0 "$client" 2>/dev/null; do
  cat /proc/"$client"/task/*/stat > "$raw/client.$i" 2>/dev/null || true
  cat /proc/"$server"/task/*/stat > "$raw/server.$i" 2>/dev/null || true
  date +%s.%N > "$raw/time.$i"
  i=$((i + 1))
  sleep "$every"
done
wait "$client" || { echo "thread-cpu.sh: the client exited with $?" >&2; kill "$server" 2>/dev/null || true; }
wait "$server" || echo "thread-cpu.sh: the server exited with $?" >&2
grep -h '^|' "$raw/client.txt" || tail -5 "$raw/client.txt"

# One side's table: seconds since the first sample, then each busy thread's ticks in the interval.
# A stat line is "TID (NAME) STATE ... UTIME STIME ...": NAME may hold spaces, so split at ") ".
table() { # side samples
  for ((k = 0; k < $2; k++)); do
    sed -E 's/^([0-9]+) \((.*)\) (.*)$/\1|\2|\3/' "$raw/$1.$k" | awk -F'|' -v k="$k" -v t="$(cat "$raw/time.$k")" \
      '{ split($3, f, " "); print k, t, $1, $2, f[12], f[13] }'
  done | awk -v side="$1" '
    { k = $1; t[k] = $2; tid = $3; n = $4; for (j = 5; j < NF - 1; j++) n = n " " $j; name[tid] = n
      user[tid, k] = $(NF - 1); sys[tid, k] = $NF; all = $(NF - 1) + $NF
      if (all > total[tid]) total[tid] = all; if (k > last) last = k }
    END {
      top = 0
      for (tid in total) if (total[tid] > 0) order[++top] = tid
      for (a = 1; a <= top; a++) for (b = a + 1; b <= top; b++)
        if (total[order[b]] > total[order[a]]) { x = order[a]; order[a] = order[b]; order[b] = x }
      if (top > 5) top = 5
      printf "\n%s: CPU ticks (1/100 s) per interval, user/system, busiest threads\n%7s", side, "s"
      for (a = 1; a <= top; a++) printf " %16.16s", name[order[a]]
      printf "\n"
      for (k = 1; k <= last; k++) {
        printf "%7.1f", t[k] - t[0]
        for (a = 1; a <= top; a++) {
          tid = order[a]
          if ((tid, k) in user && (tid, k - 1) in user)
            printf " %16s", (user[tid, k] - user[tid, k - 1]) "/" (sys[tid, k] - sys[tid, k - 1])
          else printf " %16s", "-"
        }
        printf "\n"
      }
    }'
}
table client "$i"
table server "$i"
