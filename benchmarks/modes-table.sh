#!/usr/bin/env bash
# Prints benchmarks/modes.sh's tables from its raw outputs (default benchmarks/target/modes/):
#   benchmarks/modes-table.sh [RAW_DIR]
# Cells that a run did not produce read "failed" and name the raw file to look at.
set -euo pipefail
raw=${1:-$(cd "$(dirname "$(readlink -f "$0")")" && pwd)/target/modes}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "-" }'; }
value() { [[ -s $1 ]] && head -n1 "$1" || echo "-"; }

cat "$raw/when.txt" 2>/dev/null || true

# RTT rows: mode-bench client lines "| mode | thread | bytes | iterations | p50 | p99 | avg | cpu c | cpu s |"
rtt_files=$(ls "$raw"/rtt-*.txt 2>/dev/null | grep -v '\.server$' || true)
if [[ -n $rtt_files ]]; then
  echo
  echo "| mode | thread | bytes | RTT p50 µs | RTT p99 µs | CPU s client | CPU s server | ibv_rc_pingpong µs/iter | ibv_rc_pingpong -e µs/iter | p50 / ibv_rc_pingpong | p50 / ibv_rc_pingpong -e |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for size in $(ls "$raw"/rtt-*.txt | sed -n 's/.*rtt-[a-z]*-\([0-9]*\)-[a-z]*\.txt$/\1/p' | sort -nu); do
    busy=$(value "$raw/rc-$size-busy.txt") event=$(value "$raw/rc-$size-event.txt")
    for mode in busy event adaptive; do
      for thread in app loop; do
        f=$raw/rtt-$mode-$size-$thread.txt
        [[ -e $f ]] || continue
        row=$(grep -E "^\| $mode \| $thread \| " "$f" || true)
        if [[ -z $row ]]; then
          echo "| $mode | $thread | $size | failed: see $f | | | | $busy | $event | | |"
          continue
        fi
        IFS='|' read -r _ _ _ _ _ p50 p99 _ cpuc cpus _ <<<"$row"
        p50=${p50// /} p99=${p99// /} cpuc=${cpuc// /} cpus=${cpus// /}
        echo "| $mode | $thread | $size | $p50 | $p99 | $cpuc | $cpus | $busy | $event | $(ratio "$p50" "$busy") | $(ratio "$p50" "$event") |"
      done
    done
  done
  grep -h '^transport:' $rtt_files | sort | uniq -c | sed 's/^ */transport of the clients: /' || true
fi

idle_files=$(ls "$raw"/idle-*.txt 2>/dev/null || true)
if [[ -n $idle_files ]]; then
  echo
  echo "| mode | idle channels per loop | seconds | loop CPU ms/s (server / client) | loop wake-ups/s (server / client) |"
  echo "|---|---:|---:|---:|---:|"
  for mode in busy event adaptive; do
    for f in $(ls "$raw"/idle-$mode-*.txt 2>/dev/null | sort -V); do
      grep -E '^\| (busy|event|adaptive) \| [0-9]+ ' "$f" || echo "| failed: see $f | | | | |"
    done
  done
fi

# free on every CPU, then on one CPU (taskset): the rows pass through unchanged, under the header
# tcp-vs-nio printed with them
nio_table() {
  local title=$1 files=$2
  [[ -n $files ]] || return 0
  echo
  echo "$title"
  echo
  grep -h -m1 -A1 '^| bytes |' $files | head -n2 || true
  for f in $(ls $files | sort -V); do
    grep -E '^\| [0-9]+ ' "$f" || echo "| failed: see $f |"
  done
}
nio_table "TCP channel vs plain NIO, free on every CPU:" "$(ls "$raw"/tcp-vs-nio-[0-9]*.txt 2>/dev/null || true)"
nio_table "TCP channel vs plain NIO, the JVM on one CPU:" "$(ls "$raw"/tcp-vs-nio-onecpu-*.txt 2>/dev/null || true)"
