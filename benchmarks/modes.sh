#!/usr/bin/env bash
# The pvrdma-guest layer's figures, in one run (one rig boot), as Markdown tables
# (benchmarks/modes-table.sh prints them from the raw outputs; compare.sh runs this last):
#   ci/rig run benchmarks/modes.sh [--sizes "64 4096"] [--iters N] [--modes "busy event adaptive"]
#        [--threads "app loop"] [--transport rdma|tcp|auto] [--idle "1 100"] [--idle-seconds S]
#        [--idle-modes "event adaptive busy"] [--nio-sizes "64 4096 65536"] [--nio-seconds S | --nio-bytes B]
#        [--nio-rounds R]
#        [--skip-modes] [--skip-idle] [--skip-nio] [--warmup N] [--jit c2|c1|as-is] [--repeat R] [--no-pin]
# --jit: the JVMs' compiler. c2 (the default) runs C2 alone (-XX:-TieredCompilation), what a JVM
#    in a real VM ends up running; the rig's own default is C1 only (tiered C2 crashes some
#    launches under emulation, C2 alone does not: ci/README.md). c1 runs C1 only; as-is leaves
#    JAVA_TOOL_OPTIONS alone. --warmup: round trips before measuring, in four rounds (default
#    20000 for c2, which compiles a method after 10 000 calls; iters/10 otherwise); then round
#    trips go on until both JVMs' compilers stay quiet through a second of them (4 minutes at most).
# 1. Round trips: for each completion mode, size and answering thread (app: an application thread
#    sends and waits, as `verbs4j pingpong` does; loop: the listener answers on the loop thread),
#    `bin/verbs4j mode-bench` server and client, each its own process: round trip p50/p99 and CPU
#    seconds; beside them rdma-core's `ibv_rc_pingpong` and `ibv_rc_pingpong -e` µs/iteration at
#    the same size and count, measured right before each of our rows (C, Java, C, Java... as
#    compare.sh runs perftest), and our p50 over theirs: the guest's speed drifts within a boot
#    (rdma-core's busy figure at 64 B drew 51-102 us between the rows of one round), so a row is
#    compared with the pair measured next to it. --repeat R runs that whole round R times; the
#    table gives the median over the rounds of each cell and of each round's ratio, with the
#    ratios' range: one pass swings 2-3x under emulation, rdma-core's figure and ours alike, and
#    not always together. Every server runs on CPU 0 and every client on CPU 1 (taskset),
#    rdma-core's and ours alike, as compare.sh does: free, a JVM's helper threads can get its hot
#    thread moved between CPUs: in one boot, 64 B passes drew 1.15-2.0 x rdma-core free and
#    1.08-1.33 x pinned (--no-pin runs them free).
# 2. Idle loops: `bin/verbs4j idle-loop`, a loop holding N idle channels for S seconds: the loop
#    thread's CPU ms and wake-ups (context switches) per second, from /proc. Then, for the modes
#    that sleep, one channel with an application thread waiting in receive on it (`--receiving`,
#    as a server thread waits for its next request), over --transport and over TCP.
# 3. `bin/verbs4j tcp-vs-nio`: the TCP fallback channel against plain NIO on loopback, throughput
#    and round-trip p50 (needs no RDMA device: `--skip-modes --skip-idle` runs only this, on a host),
#    twice: free on every CPU, then with the JVM on one CPU (taskset). Free, where the scheduler
#    wakes each peer (same CPU or the other) swings a round trip 2-3x from pass to pass, for NIO
#    and the channel alike; on one CPU the comparison is of the work each does per message. It
#    prints the medians of --nio-rounds rounds (default 5), the median and range of each round's
#    own ratios, the best round of each column and every round. A stream pass sends as many
#    messages as plain NIO sent in --nio-seconds (default 2) in its warm-up, or --nio-bytes per
#    pass (at least 2000 and at most 200000 messages): in one boot a fixed 20 MB was 0.25 s of
#    NIO at 64 KiB, too short to be steady, and a minute at 64 B on one CPU with TCP_NODELAY.
# Raw outputs go to benchmarks/target/modes/. Build first: mvn -B -o -pl benchmarks -am -DskipTests install
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)

sizes="64 4096"
iters=2000
warmup=
modes="busy event adaptive"
threads="app loop"
transport=rdma
idle="1 100"
idle_seconds=10
idle_modes="event adaptive busy"
nio_sizes="64 4096 65536"
nio_seconds=2
nio_bytes=
nio_rounds=5
skip_modes=0 skip_idle=0 skip_nio=0
repeat=1
jit=c2
pin=1

usage() { sed -n '2,/^# Raw outputs/p' "$0" | sed 's/^# \{0,1\}//'; }

while (($#)); do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --transport) transport=$2; shift 2 ;;
    --idle) idle=$2; shift 2 ;;
    --idle-seconds) idle_seconds=$2; shift 2 ;;
    --idle-modes) idle_modes=$2; shift 2 ;;
    --nio-sizes) nio_sizes=$2; shift 2 ;;
    --nio-seconds) nio_seconds=$2; shift 2 ;;
    --nio-bytes) nio_bytes=$2; shift 2 ;;
    --nio-rounds) nio_rounds=$2; shift 2 ;;
    --skip-modes) skip_modes=1; shift ;;
    --skip-idle) skip_idle=1; shift ;;
    --skip-nio) skip_nio=1; shift ;;
    --jit) jit=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --no-pin) pin=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "modes.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

# Drop any -XX:TieredStopAtLevel (the rig's default) and say which compiler runs.
jit_opts=$(sed -E 's/-XX:TieredStopAtLevel=[0-9]+//g; s/-XX:[+-]TieredCompilation//g' <<< "${JAVA_TOOL_OPTIONS:-}")
case $jit in
  c2) export JAVA_TOOL_OPTIONS="$jit_opts -XX:-TieredCompilation"; warmup=${warmup:-20000} ;;
  c1) export JAVA_TOOL_OPTIONS="$jit_opts -XX:TieredStopAtLevel=1" ;;
  as-is) ;;
  *) echo "modes.sh: --jit takes c2, c1 or as-is, not $jit" >&2; exit 2 ;;
esac

verbs4j=$root/bin/verbs4j
raw=$root/benchmarks/target/modes
rm -rf "$raw"
mkdir -p "$raw"
device_args=()
[[ -n ${RIG_DEVICE:-} ]] && device_args+=(-d "$RIG_DEVICE")
[[ -n ${RIG_GID_INDEX:-} ]] && device_args+=(-x "$RIG_GID_INDEX")
addr=${RIG_ADDR:-127.0.0.1}
port=18710
source "$root/ci/lib/cpu-pinning.sh"
pin_server=() pin_client=()
((pin)) && { pin_pairs modes.sh || pin=0; }
((pin)) && export RC_PINGPONG_PIN=1   # rdma-core's pairs alike

# One mode, size and thread: the server in the background, the client retried until the server listens.
mode_run() { # mode size thread round_dir
  local out=$4/rtt-$1-$2-$3.txt args
  args=(--mode "$1" --thread "$3" --transport "$transport" -p "$port" "${device_args[@]}")
  timeout 300 "${pin_server[@]}" "$verbs4j" mode-bench --server --bind "$addr" "${args[@]}" > "$out.server" 2>&1 &
  local server_pid=$! attempt rc=1
  for attempt in $(seq 120); do   # wait until the server listens (a JVM starts slowly under emulation)
    ss -ltn 2>/dev/null | grep -q ":$port " || { sleep 0.5; continue; }
    rc=0
    timeout 300 "${pin_client[@]}" "$verbs4j" mode-bench "${args[@]}" -s "$2" -n "$iters" --warmup "${warmup:-$((iters / 10))}" "$addr" \
      > "$out" 2>&1 || rc=$?
    break
  done
  ((rc == 0)) || kill "$server_pid" 2>/dev/null || true   # a server nobody reached would wait its full timeout
  wait "$server_pid" || echo "modes.sh: mode-bench server ($1, $2 bytes, $3) exited with $?" >&2
  port=$((port + 1))
}

# rdma-core's two figures for one size (PREFIX-busy.txt, PREFIX-event.txt), just before one of our rows
rc_pair() { # size prefix
  "$root/ci/lib/rc-pingpong-usec.sh" "$1" "$iters" > "$2-busy.txt" || true
  "$root/ci/lib/rc-pingpong-usec.sh" "$1" "$iters" -e > "$2-event.txt" || true
}

echo "modes.sh: $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), JIT $jit, $( ((pin)) && echo "servers on CPU 0, clients on CPU 1" || echo unpinned) (JAVA_TOOL_OPTIONS=${JAVA_TOOL_OPTIONS:-})" > "$raw/when.txt"

if ((!skip_modes)); then
  for round in $(seq "$repeat"); do
    dir=$raw/round-$round
    mkdir -p "$dir"
    for size in $sizes; do
      for mode in $modes; do
        for thread in $threads; do
          rc_pair "$size" "$dir/rc-$size-before-$mode-$thread"
          mode_run "$mode" "$size" "$thread" "$dir"
        done
      done
    done
  done
fi

if ((!skip_idle)); then
  for mode in $idle_modes; do
    for n in $idle; do
      [[ $mode == busy && $n != "${idle%% *}" ]] && continue   # a busy loop spins whatever it holds: once is enough
      timeout 300 "$verbs4j" idle-loop --mode "$mode" --channels "$n" --seconds "$idle_seconds" \
        --transport "$transport" --bind "$addr" "${device_args[@]}" > "$raw/idle-$mode-$n.txt" 2>&1 || true
    done
  done
  receiving_transports=$transport
  [[ $transport == tcp ]] || receiving_transports+=" tcp"
  for mode in $idle_modes; do
    [[ $mode == busy ]] && continue   # a busy receive spins by design
    for t in $receiving_transports; do
      timeout 300 "$verbs4j" idle-loop --mode "$mode" --channels 1 --seconds "$idle_seconds" --receiving \
        --transport "$t" --bind "$addr" "${device_args[@]}" > "$raw/idle-$mode-1-receiving-$t.txt" 2>&1 || true
    done
  done
fi

# tcp-vs-nio's pass length for one size: --seconds, or a message count from --nio-bytes
nio_pass() {
  local size=$1 n
  if [[ -z $nio_bytes ]]; then
    echo "--seconds $nio_seconds"
    return
  fi
  n=$((nio_bytes / size))
  ((n > 200000)) && n=200000
  ((n < 2000)) && n=2000
  echo "-n $n"
}

if ((!skip_nio)); then
  for size in $nio_sizes; do
    # shellcheck disable=SC2046 # nio_pass prints an option and its value
    "$verbs4j" tcp-vs-nio -s "$size" $(nio_pass "$size") --rounds "$nio_rounds" > "$raw/tcp-vs-nio-$size.txt" 2>&1 || true
  done
  for size in $nio_sizes; do
    # shellcheck disable=SC2046
    taskset -c 0 "$verbs4j" tcp-vs-nio -s "$size" $(nio_pass "$size") --rounds "$nio_rounds" \
      > "$raw/tcp-vs-nio-onecpu-$size.txt" 2>&1 || true
  done
fi

"$root/benchmarks/modes-table.sh" "$raw"
