#!/usr/bin/env bash
# Netty and gRPC over verbs4j's transport against Netty's NIO on kernel TCP, in one rig boot:
#   RIG_TIMEOUT=2400 ci/rig run benchmarks/netty.sh [--iters N] [--warmup N] [--stream-mib M]
#        [--grpc-iters N] [--grpc-warmup N] [--modes "adaptive event"] [--ours verbs4j-rdma|verbs4j-tcp]
#        [--no-floor] [--no-gc | --gc-seconds S] [--no-pin]
# Rows: a Netty echo round trip p50/p99 at 64 B and 4 KiB (--iters after --warmup, default 2000
# after 20000: C2 compiles a method after 10 000 calls) and a one-way stream of 64 KiB writes
# (--stream-mib MiB, default 64, after as many unmeasured), NettyEchoBench; a gRPC unary round trip
# of 64 B, GrpcUnaryBench (--grpc-iters after --grpc-warmup blocking calls, default 1000 after
# 20000: with fewer, gRPC's per-call code is still interpreted). Columns: Netty's NIO, then --ours (default verbs4j over RDMA, forced) with its event loops
# in each of --modes. Each benchmark is two JVMs, a server on CPU 0 and a client on CPU 1
# (taskset, as benchmarks/modes.sh pins its pairs; --no-pin runs them free), each with one
# event-loop thread, C2 alone (-XX:-TieredCompilation, as a JVM in a real VM ends up running),
# between the same two addresses ($RIG_ADDR); the client starts when the server has printed its
# "listening" line. Before each column's rows, rdma-core's floor: `ibv_rc_pingpong -s SIZE` and
# `ibv_rc_pingpong -e -s SIZE` at 64 B and 4 KiB, --iters iterations, and perftest's `ib_send_bw
# -s 65536` for the stream (ci/lib/send-bw-mbps.sh), pinned the same way (where
# there is an RDMA device; --no-floor skips it): soft-RoCE's speed drifts within a boot, so a
# column is compared with the floor measured next to it. Then JMH's `-prof gc` of a 64 B echo
# round trip, both ends in one JVM, NIO against --ours in ADAPTIVE: 2 warm-up and 3 measured
# iterations of --gc-seconds (default 2) each; C2 compiles the echo path after 10 000 round trips,
# so on a slow guest only longer iterations measure compiled code; --no-gc skips it. Prints
# benchmarks/netty-table.sh's table: ratios to NIO and to rdma-core's floor, and each target the
# floor itself already misses on this device.
# On a host without RDMA, `--ours verbs4j-tcp` runs the same plumbing over verbs4j's TCP fallback.
# Raw outputs go to benchmarks/target/netty/. Build first: mvn -B -o -ntp -pl benchmarks -am -DskipTests install
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=$root/benchmarks/target
raw=$target/netty
rows=$raw/rows.txt
address=${RIG_ADDR:-127.0.0.1}
iters=2000 warmup=20000 stream_mib=64 grpc_iters=1000 grpc_warmup=20000
modes="adaptive event" ours=verbs4j-rdma floor=1 gc=1 gc_seconds=2 pin=1

usage() { sed -n '2,/^# Raw outputs/p' "$0" | sed 's/^# \{0,1\}//'; }

while (($#)); do
  case $1 in
    --iters) iters=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --stream-mib) stream_mib=$2; shift 2 ;;
    --grpc-iters) grpc_iters=$2; shift 2 ;;
    --grpc-warmup) grpc_warmup=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --ours) ours=$2; shift 2 ;;
    --no-floor) floor=0; shift ;;
    --no-gc) gc=0; shift ;;
    --gc-seconds) gc_seconds=$2; shift 2 ;;
    --no-pin) pin=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "netty.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

# C2 alone for every JVM, JMH's fork included: drop the rig's -XX:TieredStopAtLevel (as modes.sh does)
JAVA_TOOL_OPTIONS="$(sed -E 's/-XX:TieredStopAtLevel=[0-9]+//g; s/-XX:[+-]TieredCompilation//g' <<< "${JAVA_TOOL_OPTIONS:-}") -XX:-TieredCompilation"
export JAVA_TOOL_OPTIONS
java=("${JAVA_HOME:+$JAVA_HOME/bin/}java" --enable-native-access=ALL-UNNAMED)
source "$root/ci/lib/cpu-pinning.sh"
pin_server=() pin_client=()
((pin)) && { pin_pairs netty.sh || pin=0; }
((pin)) && export RC_PINGPONG_PIN=1   # rdma-core's pairs alike
if ((floor)) && ! { command -v ibv_rc_pingpong > /dev/null && command -v ib_send_bw > /dev/null &&
                    compgen -G '/sys/class/infiniband/*' > /dev/null; }; then
  echo "netty.sh: no RDMA device, no ibv_rc_pingpong or no ib_send_bw (perftest): no rdma-core floor" >&2
  floor=0
fi
rm -rf "$raw"
mkdir -p "$raw"
: > "$rows"

# The ports of the server's "listening ADDRESS PORT..." line, once it is in FILE; fails if PID ends first.
listening_ports() { # file pid
  local line
  while kill -0 "$2" 2>/dev/null; do
    line=$(grep -m1 '^listening ' "$1" 2> /dev/null) && { cut -d' ' -f3- <<< "$line"; return 0; }
    sleep 0.2
  done
  line=$(grep -m1 '^listening ' "$1" 2> /dev/null) && cut -d' ' -f3- <<< "$line"
}

# One benchmark's server and client, each its own JVM on its own CPU; the client's rows go to $rows.
pair() { # name class transport mode client_args...
  local out=$raw/$1 class=dev.verbs4j.benchmarks.netty.$2 server_pid ports rc=0
  timeout 3600 "${pin_server[@]}" "${java[@]}" -cp "$target/classes:$target/lib/*" "$class" server "$3" "$4" "$address" \
    > "$out.server" 2>&1 &
  server_pid=$!
  if ports=$(listening_ports "$out.server" "$server_pid"); then
    # shellcheck disable=SC2086 # the ports are separate arguments
    timeout 3600 "${pin_client[@]}" "${java[@]}" -cp "$target/classes:$target/lib/*" "$class" client "$3" "$4" "$address" \
      $ports "${@:5}" > "$out" 2>&1 || rc=$?
  else
    rc=1
    echo "netty.sh: $1: the server ended before it listened" >&2
  fi
  if ((rc != 0)); then
    echo "netty.sh: $1 failed ($rc), see $out and $out.server" >&2
    echo "failed $1" >> "$rows"
    kill "$server_pid" 2>/dev/null || true   # a server whose client failed would wait its full hour
  fi
  wait "$server_pid" || echo "netty.sh: $1: the server exited with $?, see $out.server" >&2
  grep -E '^(echo|stream|grpc|#) ' "$out" >> "$rows" || true
}

# rdma-core's busy and event-driven pingpong at 64 B and 4 KiB, just before LABEL's rows.
floor_pairs() { # label
  local size usec mbps
  for size in 64 4096; do
    usec=$("$root/ci/lib/rc-pingpong-usec.sh" "$size" "$iters" 2>> "$raw/floor.err") && echo "floor $1 $size busy $usec" >> "$rows"
    usec=$("$root/ci/lib/rc-pingpong-usec.sh" "$size" "$iters" -e 2>> "$raw/floor.err") && echo "floor $1 $size event $usec" >> "$rows"
  done
  # the stream's: as many 64 KiB SENDs as one of our stream passes writes
  mbps=$("$root/ci/lib/send-bw-mbps.sh" 65536 $((stream_mib * 16)) 2>> "$raw/floor.err") && echo "floor $1 65536 bw $mbps" >> "$rows"
}

echo "# netty.sh: $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), C2 only, $( ((pin)) && echo "servers on CPU 0, clients on CPU 1" || echo unpinned), $address" | tee -a "$rows"
columns=(nio)
for mode in $modes; do columns+=("$ours/$mode"); done
printf 'column %s\n' "${columns[@]}" >> "$rows"   # a column whose runs all failed still shows
for column in "${columns[@]}"; do
  transport=${column%%/*} mode=${column#*/}
  [[ $column == nio ]] && mode=adaptive   # NIO's loops have no mode; the argument is ignored
  ((floor)) && floor_pairs "$column"
  pair "echo-${column//\//-}" NettyEchoBench "$transport" "$mode" "$iters" "$warmup" "$stream_mib"
  pair "grpc-${column//\//-}" GrpcUnaryBench "$transport" "$mode" "$grpc_iters" "$grpc_warmup"
done

if ((gc)); then
  RIG_ADDR=$address "${java[@]}" -jar "$target/benchmarks.jar" NettyEchoBenchmark -p transport="nio,$ours" -p mode=adaptive \
    -p size=64 -wi 2 -i 3 -w "$gc_seconds" -r "$gc_seconds" -f 1 -prof gc -rf csv -rff "$raw/gc.csv" > "$raw/gc.txt" 2>&1 ||
    echo "netty.sh: JMH -prof gc failed, see $raw/gc.txt" >&2
  # "gc LABEL 64 B_PER_OP ERROR" from JMH's gc.alloc.rate.norm rows, the columns found by their names
  if [[ -s $raw/gc.csv ]]; then
    awk -F, '
    { gsub(/["\r]/, "") }
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $1 ~ /:gc\.alloc\.rate\.norm$/ {
      t = $col["Param: transport"]
      printf "gc %s %s %s %s\n", t == "nio" ? t : t "/" $col["Param: mode"], $col["Param: size"], $col["Score"], $col["Score Error (99.9%)"]
    }' "$raw/gc.csv" >> "$rows"
  fi
fi

echo
"$root/benchmarks/netty-table.sh" "$rows"
echo "netty.sh: $SECONDS s" >&2
