#!/usr/bin/env bash
# The JMH suite plus its C baseline, inside the soft-RoCE rig:
#   ci/rig run benchmarks/jmh.sh [JMH OPTIONS]      (default: -wi 3 -i 5 -f 1 -w 1 -r 1 -prof gc)
# Builds src/main/c/empty_poll.c with gcc, runs it, runs target/benchmarks.jar, and prints the
# empty-poll cost of verbs4j and of a plain FFM call over C as ratios. Build first:
#   mvn -B -o -pl benchmarks -am -DskipTests install
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
target=$root/benchmarks/target
device=${RIG_DEVICE:-}
(($#)) || set -- -wi 3 -i 5 -f 1 -w 1 -r 1 -prof gc

gcc -O2 -Wall -o "$target/empty_poll" "$root/benchmarks/src/main/c/empty_poll.c" -libverbs
c_line=$("$target/empty_poll" "$device")
echo "$c_line"

java=${JAVA_HOME:+$JAVA_HOME/bin/}java
"$java" --enable-native-access=ALL-UNNAMED -jar "$target/benchmarks.jar" "$@" -rf text -rff "$target/jmh.txt" \
  | tee "$target/jmh.log"

c_ns=$(sed -E 's/.*median_ns=([0-9.]+).*/\1/' <<< "$c_line")
jmh_avg() { awk -v name="$1" '$1 ~ name { for (i = 2; i < NF; i++) if ($i == "avgt") print $(i + 2) }' "$target/jmh.txt"; }
java_ns=$(jmh_avg 'EmptyPollBenchmark[.]emptyPoll$')
raw_ns=$(jmh_avg 'RawPollBenchmark[.]rawPoll$')
echo
echo "| empty CQ poll, 16-entry batch | ns | /C |"
echo "|---|---:|---:|"
awk -v c="$c_ns" -v r="$raw_ns" -v j="$java_ns" 'BEGIN {
  printf "| C (empty_poll.c) | %.2f | 1.00 |\n", c
  if (r != "") printf "| plain FFM handle (RawPollBenchmark) | %.2f | %.2f |\n", r, (c > 0 ? r / c : 0)
  if (j != "") printf "| verbs4j CompletionQueue.poll (EmptyPollBenchmark) | %.2f | %.2f |\n", j, (c > 0 ? j / c : 0) }'
