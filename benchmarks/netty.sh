#!/usr/bin/env bash
# Netty and gRPC over verbs4j's transport against Netty's NIO on kernel TCP, in one rig boot:
#   RIG_TIMEOUT=2400 ci/rig run benchmarks/netty.sh [--iters N] [--stream-mib M] [--grpc-iters N] [--no-jmh]
# Rows: Netty echo round trip p50/p99 at 64 B and 4 KiB and a one-way stream of 64 KiB writes
# (NettyEchoBench), gRPC unary round trips of 64 B (GrpcUnaryBench), both ends in one JVM on one
# event-loop thread each, NIO and verbs4j between the same two addresses ($RIG_ADDR); verbs4j
# over RDMA forced, in ADAPTIVE and EVENT mode. Then JMH's -prof gc of an echo round trip, NIO
# against verbs4j over RDMA. Prints a markdown table with the ratios. Build first:
#   mvn -B -o -pl benchmarks -am -DskipTests install
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=$root/benchmarks/target
address=${RIG_ADDR:-127.0.0.1}
iters=2000 stream_mib=64 grpc_iters=1000 jmh=1
while (($#)); do
  case $1 in
    --iters) iters=$2; shift 2 ;;
    --stream-mib) stream_mib=$2; shift 2 ;;
    --grpc-iters) grpc_iters=$2; shift 2 ;;
    --no-jmh) jmh=0; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
# C2 alone, as a JVM in a real VM ends up running (benchmarks/modes.sh does the same)
run() { "$java" --enable-native-access=ALL-UNNAMED -XX:-TieredCompilation -cp "$target/classes:$target/lib/*" \
  "dev.verbs4j.benchmarks.netty.$1" "${@:2}" 2>&1 | grep -E '^(echo|stream|grpc|#) ' | tee -a "$target/netty.txt"; }
: > "$target/netty.txt"
for t in "nio adaptive" "verbs4j-rdma adaptive" "verbs4j-rdma event"; do
  set -- $t
  run NettyEchoBench "$1" "$2" "$address" "$iters" "$stream_mib"
  run GrpcUnaryBench "$1" "$2" "$address" "$grpc_iters"
done
if ((jmh)); then
  RIG_ADDR=$address "$java" --enable-native-access=ALL-UNNAMED -jar "$target/benchmarks.jar" NettyEchoBenchmark \
    -p transport=nio,verbs4j-rdma -p size=64 -wi 3 -i 5 -w 2 -r 2 -f 1 -prof gc -rf text -rff "$target/netty-jmh.txt" \
    | grep -E '^(Benchmark|NettyEchoBenchmark)' || true
fi
echo
awk '
  $1 == "echo"   { p50[$2 " " $3] = $4; p99[$2 " " $3] = $5 }
  $1 == "stream" { bw[$2] = $4 }
  $1 == "grpc"   { g50[$2] = $4; g99[$2] = $5 }
  END {
    print "| row | NIO p50 / p99 (µs or MB/s) | verbs4j ADAPTIVE | × NIO | verbs4j EVENT | × NIO |"
    print "|---|---:|---:|---:|---:|---:|"
    n = split("64 4096", sizes, " ")
    for (i = 1; i <= n; i++) {
      s = sizes[i]; a = "verbs4j-rdma/adaptive " s; e = "verbs4j-rdma/event " s; o = "nio " s
      printf "| echo %d B round trip | %s / %s | %s / %s | %.2f | %s / %s | %.2f |\n", s, p50[o], p99[o],
        p50[a], p99[a], p50[a] / p50[o], p50[e], p99[e], p50[e] / p50[o]
    }
    printf "| stream 64 KiB writes (MB/s) | %s | %s | %.2f | %s | %.2f |\n", bw["nio"], bw["verbs4j-rdma/adaptive"],
      bw["verbs4j-rdma/adaptive"] / bw["nio"], bw["verbs4j-rdma/event"], bw["verbs4j-rdma/event"] / bw["nio"]
    printf "| gRPC unary 64 B | %s / %s | %s / %s | %.2f | %s / %s | %.2f |\n", g50["nio"], g99["nio"],
      g50["verbs4j-rdma/adaptive"], g99["verbs4j-rdma/adaptive"], g50["verbs4j-rdma/adaptive"] / g50["nio"],
      g50["verbs4j-rdma/event"], g99["verbs4j-rdma/event"], g50["verbs4j-rdma/event"] / g50["nio"]
  }' "$target/netty.txt"
