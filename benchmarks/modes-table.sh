#!/usr/bin/env bash
# Prints benchmarks/modes.sh's tables from its raw outputs (default benchmarks/target/modes/):
#   benchmarks/modes-table.sh [RAW_DIR]
# Cells that a run did not produce read "failed" and name the raw file to look at.
set -euo pipefail
raw=${1:-$(cd "$(dirname "$(readlink -f "$0")")" && pwd)/target/modes}

value() { [[ -s $1 ]] && head -n1 "$1" || echo "-"; }

cat "$raw/when.txt" 2>/dev/null || true

# RTT rows: mode-bench client lines "| mode | thread | bytes | iterations | p50 | p99 | avg | cpu c | cpu s |",
# one set per round (round-N/; a run from before rounds existed keeps its files in $raw itself).
rounds=$(ls -d "$raw"/round-* 2>/dev/null | sort -V || true)
[[ -n $rounds ]] || rounds=$raw

# median of the numbers on stdin ("-" when there are none)
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# "median" for one round, "median (min-max)" for more
spread() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit }
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  if (NR == 1) printf "%.2f\n", m; else printf "%.2f (%.2f-%.2f)\n", m, v[1], v[NR] }'; }

# rdma-core's figure (busy or event) for one row of a round: the pair measured just before the row,
# or, in runs from before that, the one measured per size at the start of the round
rc_value() { # round_dir size mode thread busy|event
  local own=$1/rc-$2-before-$3-$4-$5.txt
  [[ -e $own ]] && value "$own" || value "$1/rc-$2-$5.txt"
}

# over the current row's rounds ($cells: "p50 p99 cpuc cpus busy event" each): column $1, and p50 / column $1
col() { printf '%s\n' "${cells[@]}" | awk -v c="$1" '$c != "-" { print $c }'; }
rat() { printf '%s\n' "${cells[@]}" | awk -v c="$1" '$1 > 0 && $c > 0 { print $1 / $c }'; }

rtt_files=$(for d in $rounds; do ls "$d"/rtt-*.txt 2>/dev/null; done | grep -v '\.server$' || true)
if [[ -n $rtt_files ]]; then
  n_rounds=$(wc -w <<<"$rounds")
  echo
  ((n_rounds > 1)) && echo "Medians over $n_rounds rounds, rdma-core measured just before each row; ratios: median of the rounds' own ratios (range)."
  echo "| mode | thread | bytes | RTT p50 µs | RTT p99 µs | CPU s client | CPU s server | ibv_rc_pingpong µs/iter | ibv_rc_pingpong -e µs/iter | p50 / ibv_rc_pingpong | p50 / ibv_rc_pingpong -e |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for size in $(sed -n 's/.*rtt-[a-z]*-\([0-9]*\)-[a-z]*\.txt$/\1/p' <<<"$rtt_files" | sort -nu); do
    for mode in busy event adaptive; do
      for thread in app loop; do
        cells=() failed=()
        for d in $rounds; do
          f=$d/rtt-$mode-$size-$thread.txt
          [[ -e $f ]] || continue
          row=$(grep -E "^\| $mode \| $thread \| " "$f" || true)
          if [[ -z $row ]]; then failed+=("$f"); continue; fi
          IFS='|' read -r _ _ _ _ _ p50 p99 _ cpuc cpus _ <<<"$row"
          cells+=("${p50// /} ${p99// /} ${cpuc// /} ${cpus// /} $(rc_value "$d" "$size" "$mode" "$thread" busy) $(rc_value "$d" "$size" "$mode" "$thread" event)")
        done
        ((${#cells[@]} + ${#failed[@]})) || continue   # a row this run did not measure
        busy=$(for d in $rounds; do rc_value "$d" "$size" "$mode" "$thread" busy; done | awk '$1 != "-"' | median)
        event=$(for d in $rounds; do rc_value "$d" "$size" "$mode" "$thread" event; done | awk '$1 != "-"' | median)
        if ((${#cells[@]} == 0)); then
          echo "| $mode | $thread | $size | failed: see ${failed[*]} | | | | $busy | $event | | |"
          continue
        fi
        note=""
        ((${#failed[@]})) && note=" (${#failed[@]} failed: ${failed[*]})"
        echo "| $mode | $thread | $size | $(col 1 | median)$note | $(col 2 | median) | $(col 3 | median) | $(col 4 | median) | $busy | $event | $(rat 5 | spread) | $(rat 6 | spread) |"
      done
    done
  done
  grep -h '^transport:' $rtt_files | sort | uniq -c | sed 's/^ */transport of the clients: /' || true
fi

idle_files=$(ls "$raw"/idle-*.txt 2>/dev/null || true)
if [[ -n $idle_files ]]; then
  echo
  grep -h -m1 -A1 '^| mode | transport |' $idle_files | head -n2 || true
  for mode in busy event adaptive; do
    for f in $(ls "$raw"/idle-$mode-*.txt 2>/dev/null | sort -V); do
      grep -E '^\| (busy|event|adaptive) \| (rdma|tcp) \| [0-9]+ ' "$f" || echo "| failed: see $f | | | | | | |"
    done
  done
fi

# free on every CPU, then on one CPU (taskset): the rows pass through unchanged, under the header
# and titles tcp-vs-nio printed with them; each file holds a size's median row, its row of each round's
# own ratios (after the "Each round" line; outputs from before it lack it), its best-round row (after the
# "Best round" line) and its rounds (after the "Every round" line)
nio_table() {
  local title=$1 files=$2 f
  [[ -n $files ]] || return 0
  echo
  echo "$title"
  echo
  grep -h -m1 -A1 '^| bytes |' $files | head -n2 || true
  for f in $(ls $files | sort -V); do
    awk '/^(Each round|Best round)/ { exit } /^\| [0-9]+ / { print; found = 1 } END { if (!found) exit 1 }' "$f" \
      || echo "| failed: see $f |"
  done
  if grep -q '^Each round' $files; then
    echo
    grep -h -m1 '^Each round' $files | head -n1
    echo
    grep -h -m1 -A1 '^| bytes | ratio' $files | head -n2
    for f in $(ls $files | sort -V); do
      awk '/^Each round/ { ratios = 1 } /^Best round/ { exit } ratios && /^\| [0-9]+ / { print }' "$f"
    done
  fi
  echo
  grep -h -m1 '^Best round' $files | head -n1 || true
  echo
  grep -h -m1 -A1 '^| bytes |' $files | head -n2 || true
  for f in $(ls $files | sort -V); do
    awk '/^Best round/ { best = 1 } /^Every round/ { exit } best && /^\| [0-9]+ / { print }' "$f"
  done
  echo
  grep -h -m1 '^Every round' $files | head -n1 || true
  echo
  for f in $(ls $files | sort -V); do
    awk '/^Every round/ { rounds = 1; next } rounds && /^- / { print }' "$f"
  done
}
nio_table "TCP channel vs plain NIO, free on every CPU:" "$(ls "$raw"/tcp-vs-nio-[0-9]*.txt 2>/dev/null || true)"
nio_table "TCP channel vs plain NIO, the JVM on one CPU:" "$(ls "$raw"/tcp-vs-nio-onecpu-*.txt 2>/dev/null || true)"
