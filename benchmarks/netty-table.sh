#!/usr/bin/env bash
# Prints benchmarks/netty.sh's table from its rows (default benchmarks/target/netty/rows.txt):
#   benchmarks/netty-table.sh [ROWS_FILE]
# Rows, one a line, as the programs and netty.sh write them (LABEL: nio, or verbs4j-rdma/adaptive ...):
#   echo LABEL SIZE P50_US P99_US      stream LABEL 65536 MB_PER_S      grpc LABEL 64 P50_US P99_US
#   floor LABEL SIZE busy|event US     (ibv_rc_pingpong µs/iter, measured just before LABEL's rows)
#   floor LABEL 65536 bw MB_PER_S      (perftest's ib_send_bw, 64 KiB SENDs, just before LABEL's rows)
#   gc LABEL 64 B_PER_OP ERROR         (JMH -prof gc's gc.alloc.rate.norm)
#   column LABEL                       (a column, measured or not)      failed RUN (a run that failed)
# One column per label, NIO first; each of ours with its ratio to NIO and to rdma-core's floor
# beside it (ibv_rc_pingpong -e for an EVENT column, busy ibv_rc_pingpong for the others;
# ib_send_bw for the stream). A cell
# nothing was measured for reads "—". Under the table: the targets (benchmarks/README.md), each
# one that rdma-core's own floor already misses on this device, what carried each column's
# connections (# LABEL carried by ...), and the JMH allocation figures.
set -euo pipefail
rows=${1:-$(cd "$(dirname "$(readlink -f "$0")")" && pwd)/target/netty/rows.txt}

awk '
  function has(a, k) { return (k in a) && a[k] != "" }
  function cell(a, k) { return has(a, k) ? a[k] : "—" }
  function pair(a, b, k) { return has(a, k) ? a[k] " / " b[k] : "—" }
  function ratio(a, ka, b, kb) { return has(a, ka) && has(b, kb) && b[kb] > 0 ? sprintf("%.2f", a[ka] / b[kb]) : "—" }
  # the floor our column is held against: -e for an event-driven loop, busy polling for the others
  function kind(c) { return c ~ /\/event$/ ? "event" : "busy" }
  function kindName(c) { return kind(c) == "event" ? "ibv_rc_pingpong -e" : "ibv_rc_pingpong" }
  function title(c,    n, p) { n = split(c, p, "/"); return n == 2 ? p[1] " " toupper(p[2]) : c }
  function column(c) { if (c != "nio" && !(c in seen)) { seen[c] = 1; cols[++ncols] = c } }
  $1 == "#" && $3 == "carried" { sub(/^# /, ""); carried = carried (carried == "" ? "" : "; ") $0; next }
  $1 == "column" { column($2); next }
  $1 == "failed" { failed = failed (failed == "" ? "" : ", ") $2; next }
  $1 == "#" || NF < 4 { next }
  $1 != "gc"     { column($2) }   # JMH'"'"'s labels need not be columns of the table
  $1 == "echo" || $1 == "grpc" { p50[$1 " " $3 " " $2] = $4; p99[$1 " " $3 " " $2] = $5 }
  $1 == "stream" { bw[$2] = $4 }
  $1 == "floor"  { floor[$2 " " $3 " " $4] = $5; floorSeen = 1 }
  $1 == "gc"     { gc[$2] = $4; gcErr[$2] = $5; if ($2 != "nio") gcCols[++nGc] = $2 }

  # a row of round trips (key: "echo 64", "grpc 64"): NIO, then each of ours with its ratios
  function latencyRow(name, key, size,    i, c, line) {
    line = sprintf("| %s | %s |", name, pair(p50, p99, key " nio"))
    for (i = 1; i <= ncols; i++) {
      c = cols[i]
      line = line sprintf(" %s | %s | %s |", pair(p50, p99, key " " c), ratio(p50, key " " c, p50, key " nio"),
        ratio(p50, key " " c, floor, c " " size " " kind(c)))
    }
    print line
  }
  function floorRow(size,    i, c, nio, line) {
    if (!floorSeen) return
    nio = has(floor, "nio " size " busy") || has(floor, "nio " size " event") ? \
      cell(floor, "nio " size " busy") " / " cell(floor, "nio " size " event") : "—"
    line = sprintf("| rdma-core floor %d B (µs/iter; NIO column: busy / -e) | %s |", size, nio)
    for (i = 1; i <= ncols; i++) {
      c = cols[i]
      line = line sprintf(" %s | %s | — |", has(floor, c " " size " " kind(c)) ? floor[c " " size " " kind(c)] \
        (kind(c) == "event" ? " (-e)" : " (busy)") : "—", ratio(floor, c " " size " " kind(c), p50, "echo " size " nio"))
    }
    print line
  }
  function streamFloorRow(    i, c, k, any, line) {
    any = has(floor, "nio 65536 bw")
    for (i = 1; i <= ncols; i++) if (has(floor, cols[i] " 65536 bw")) any = 1
    if (!any) return
    line = sprintf("| rdma-core floor 64 KiB (ib_send_bw MB/s) | %s |", cell(floor, "nio 65536 bw"))
    for (i = 1; i <= ncols; i++) {
      k = cols[i] " 65536 bw"
      line = line sprintf(" %s | %s | — |", cell(floor, k), ratio(floor, k, bw, "nio"))
    }
    print line
  }
  # the stream target (≥ 1.0 × NIO) above what ib_send_bw itself made next to column c
  function streamUnreachable(c,    fk) {
    fk = c " 65536 bw"
    if (!has(bw, "nio") || !has(floor, fk)) return
    if (floor[fk] + 0 < bw["nio"] + 0)
      printf "- stream, %s: the target (≥ 1.0 × NIO = %s MB/s) is above rdma-core'"'"'s own floor on this device: ib_send_bw -s 65536 made %s MB/s.\n", \
        title(c), bw["nio"], floor[fk]
  }
  # a target that the floor next to column c already misses: said plainly
  function unreachable(what, key, c, target, size,    fk, limit) {
    fk = c " " size " " kind(c)
    if (!has(p50, key) || !has(floor, fk)) return
    limit = target * p50[key]
    if (floor[fk] + 0 > limit)
      printf "- %s, %s: the target (≤ %.1f × NIO = %.1f µs) is below rdma-core'"'"'s own floor on this device: %s took %s µs/iter.\n", \
        what, title(c), target, limit, kindName(c), floor[fk]
  }
  END {
    header = "| row | NIO p50 / p99 |"; rule = "|---|---:|"
    for (i = 1; i <= ncols; i++) { header = header " " title(cols[i]) " p50 / p99 | × NIO | × rdma-core |"; rule = rule "---:|---:|---:|" }
    print header; print rule
    latencyRow("echo 64 B round trip (µs)", "echo 64", 64); floorRow(64)
    latencyRow("echo 4096 B round trip (µs)", "echo 4096", 4096); floorRow(4096)
    line = sprintf("| stream, 64 KiB writes (MB/s) | %s |", cell(bw, "nio"))
    for (i = 1; i <= ncols; i++)
      line = line sprintf(" %s | %s | %s |", cell(bw, cols[i]), ratio(bw, cols[i], bw, "nio"), ratio(bw, cols[i], floor, cols[i] " 65536 bw"))
    print line
    streamFloorRow()
    latencyRow("gRPC unary 64 B round trip (µs)", "grpc 64", 64)
    print ""
    print "The targets: echo ≤ 0.5 × NIO in ADAPTIVE and ≤ 1.0 × in EVENT, gRPC ≤ 0.7 ×, stream ≥ 1.0 ×."
    if (floorSeen)
      print "rdma-core floor: ibv_rc_pingpong at the same size (ib_send_bw with 64 KiB SENDs for the stream), server and client pinned as ours, measured just before each column'"'"'s rows; × rdma-core: our p50 over it (our MB/s over it for the stream)."
    else
      print "rdma-core floor: not measured (no RDMA device, or --no-floor)."
    for (i = 1; i <= ncols; i++) {
      c = cols[i]
      echoTarget = kind(c) == "event" ? 1.0 : 0.5
      unreachable("echo 64 B", "echo 64 nio", c, echoTarget, 64)
      unreachable("echo 4096 B", "echo 4096 nio", c, echoTarget, 4096)
      unreachable("gRPC unary 64 B", "grpc 64 nio", c, 0.7, 64)
      streamUnreachable(c)
    }
    if (carried != "") print "Connections: " carried "."
    if (failed != "") print "Failed runs (their raw outputs name the cause): " failed "."
    if (nGc || has(gc, "nio")) {
      line = "JMH -prof gc, echo round trip of 64 B, both ends in one JVM: bytes allocated per round trip:"
      line = line (has(gc, "nio") ? sprintf(" NIO %.0f ± %.0f", gc["nio"], gcErr["nio"]) : " NIO —")
      for (i = 1; i <= nGc; i++) {
        c = gcCols[i]
        line = line sprintf("; %s %.0f ± %.0f (%s × NIO)", title(c), gc[c], gcErr[c], ratio(gc, c, gc, "nio"))
      }
      print line
    }
  }' "$rows"
