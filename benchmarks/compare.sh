#!/usr/bin/env bash
# perftest vs verbs4j perf, side by side, in one boot of the soft-RoCE rig:
#   ci/rig run benchmarks/compare.sh [--sizes "2 64 4096"] [--iters N] [--tests "send_lat ..."] [--rounds N]
#                                    [--java-opt OPT] [--load-perftest S] [--no-pin] [--no-modes]
# For each test and size it runs perftest's binary and `bin/verbs4j perf` alternately (C, Java,
# C, Java ... for --rounds rounds), each as server + client on the same device, and prints one
# Markdown row: latency tests t_typical in µs (one way, as perftest reports), bandwidth tests
# BW average in MB/sec. Each column is the median of the rounds. Raw outputs go to
# benchmarks/target/compare/. Build first: mvn -B -o -pl benchmarks -am -DskipTests install
# verbs4j runs --warmup=10000 untimed iterations first (a fresh JVM runs its first thousands in
# the interpreter and the JIT; perftest needs none); --java-opt --warmup=0 turns that off.
# Servers run on CPU 0 and clients on CPU 1 (taskset), perftest and verbs4j alike: a JVM's
# helper threads otherwise get its busy thread moved between CPUs (--no-pin turns that off).
# --load-perftest S keeps both CPUs busy for S seconds before each perftest pair (then 1 s idle),
# as verbs4j's warm-up does before its timed run: under emulation a run after sustained load
# more often lands at the rig's slow speed (benchmarks/README.md, two speeds). Default 0: off.
# --no-modes skips the completion-mode tables (benchmarks/modes.sh) after the perftest table.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)

sizes="2 64 4096"
iters=1000
tests="send_lat write_lat read_lat atomic_lat send_bw write_bw read_bw"
rounds=2
java_extra=(--warmup=10000)   # a later --java-opt --warmup=N overrides it
modes=1
pin=1
load_perftest=0

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }

while (($#)); do
  case $1 in
    --sizes) sizes=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --java-opt) java_extra+=("$2"); shift 2 ;;   # extra verbs4j perf option, e.g. --warmup=200
    --load-perftest) load_perftest=$2; shift 2 ;;
    --no-pin) pin=0; shift ;;
    --no-modes) modes=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "compare.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

device=${RIG_DEVICE:-rxe0}
gid=${RIG_GID_INDEX:-1}
addr=${RIG_ADDR:-127.0.0.1}
port=18515
raw=$root/benchmarks/target/compare
mkdir -p "$raw"
: > "$raw/rounds.txt"

# CPU pinning, the same for both tools; needs two CPUs
source "$root/ci/lib/cpu-pinning.sh"
pin_server=() pin_client=()
((pin)) && { pin_pairs compare.sh || pin=0; }

# The client's report row for one size: column 5 is t_typical, column 4 BW average.
row_value() { # file test size
  local column=4
  [[ $2 == *_lat ]] && column=5
  awk -v size="$3" -v col="$column" '$1 == size && NF >= 5 && $2 ~ /^[0-9]+$/ { v = $col } END { if (v == "") exit 1; print v }' "$1"
}

# every CPU busy for $1 seconds, then a second idle (the shape of verbs4j's warm-up and JIT wait)
busy_cpus() {
  local cpu
  for cpu in $(seq 0 $(($(nproc) - 1))); do
    timeout "$1" taskset -c "$cpu" sh -c 'while :; do :; done' &
  done
  wait
  sleep 1
}

# server in the background, then the client (retried while the server is not listening yet)
run_pair() { # tool test size out
  local tool=$1 test=$2 size=$3 out=$4 args
  args=(-d "$device" -x "$gid" -n "$iters" -p "$port")
  [[ $test != atomic_lat ]] && args+=(-s "$size")
  local server client
  if [[ $tool == c ]]; then
    server=(ib_"$test" "${args[@]}"); client=(ib_"$test" "${args[@]}" "$addr")
    ((load_perftest > 0)) && busy_cpus "$load_perftest"
  else
    server=("$root/bin/verbs4j" perf "$test" "${args[@]}" "${java_extra[@]}")
    client=("$root/bin/verbs4j" perf "$test" "${args[@]}" "${java_extra[@]}" "$addr")
  fi
  timeout 900 "${pin_server[@]}" "${server[@]}" > "$out.server" 2>&1 &
  local server_pid=$!
  local attempt
  for attempt in 1 2 3 4 5; do
    sleep 1
    if timeout 900 "${pin_client[@]}" "${client[@]}" > "$out" 2>&1; then break; fi
    grep -qiE "couldn't connect|connection refused|unable to connect" "$out" || break
  done
  wait "$server_pid" || echo "compare.sh: $tool $test $size: server exited with $?" >&2
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; m = int((NR + 1) / 2); print (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2 }'; }

echo "| test | bytes | perftest | verbs4j | verbs4j/perftest |"
echo "|---|---:|---:|---:|---:|"
for test in $tests; do
  test_sizes=$sizes
  [[ $test == atomic_lat ]] && test_sizes=8
  for size in $test_sizes; do
    c_values=() j_values=()
    for ((r = 1; r <= rounds; r++)); do
      c_out=$raw/$test-$size-c-$r.txt j_out=$raw/$test-$size-java-$r.txt
      run_pair c "$test" "$size" "$c_out"
      c_values+=("$(row_value "$c_out" "$test" "$size" || echo NaN)")
      run_pair java "$test" "$size" "$j_out"
      j_values+=("$(row_value "$j_out" "$test" "$size" || echo NaN)")
    done
    c=$(printf '%s\n' "${c_values[@]}" | grep -v NaN | median || echo NaN)
    j=$(printf '%s\n' "${j_values[@]}" | grep -v NaN | median || echo NaN)
    ratio=$(awk -v c="$c" -v j="$j" 'BEGIN { if (c + 0 > 0 && j + 0 > 0) printf "%.3f", j / c; else print "n/a" }')
    printf '| %s | %s | %s | %s | %s |\n' "$test" "$size" "$c" "$j" "$ratio"
    echo "$test $size perftest=${c_values[*]} verbs4j=${j_values[*]}" >> "$raw/rounds.txt"
  done
done

# --- The pvrdma-guest layer: completion modes on RDMA (latency, CPU) and the TCP fallback vs plain NIO.
# Its own script (benchmarks/modes.sh, also runnable alone) so the perftest table above stays as is.
if ((modes)); then
  echo
  modes_args=()
  ((pin)) || modes_args+=(--no-pin)
  "$root/benchmarks/modes.sh" "${modes_args[@]}"
fi
