#!/usr/bin/env bash
# Runs `bin/verbs4j pingpong` as server and client on one machine (the demo's second half):
#   ci/lib/pingpong-pair.sh ADDRESS [PINGPONG OPTIONS...]
# The server's output is printed after the client's, so the two do not interleave.
set -euo pipefail
cd "$(dirname "$0")/../.."
addr=$1; shift
port=18515
log=$(mktemp)
bin/verbs4j pingpong --server -p "$port" "$@" >"$log" 2>&1 &
server=$!
for _ in $(seq 100); do   # wait until the server listens (JVM start-up is slow under emulation)
  ss -ltn 2>/dev/null | grep -q ":$port " && break
  sleep 0.2
done
rc=0
echo "--- client"
bin/verbs4j pingpong "$addr" -p "$port" "$@" 2>/dev/null || rc=$?
wait "$server" || rc=$?
echo "--- server"
grep -v ' INFO ' "$log" || true
rm -f "$log"
exit $rc
