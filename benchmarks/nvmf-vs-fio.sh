#!/usr/bin/env bash
# 4 KiB random read and write, queue depths 1/16/32: verbs4j's NVMe-oF host (bin/verbs4j nvmf bench)
# next to fio on the kernel initiator (nvme-rdma, libaio, O_DIRECT), same target, same boot.
# Run in the rig:  ci/rig sh --topology nvmet benchmarks/nvmf-vs-fio.sh
#   RUNTIME (s per run, default 10)  WARMUP (s, default 2)  DEPTHS (default 1,16,32)
#   BENCH_OPTS (more options for verbs4j's side, e.g. "--progress thread --spin-us 0" or "-i 2")
# Latency on both sides is submit-to-completion (fio: lat_ns percentiles).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${RIG_NVMET_NQN:?run in the rig: ci/rig sh --topology nvmet benchmarks/nvmf-vs-fio.sh}"
RUNTIME=${RUNTIME:-10} WARMUP=${WARMUP:-2} DEPTHS=${DEPTHS:-1,16,32}
out=$(mktemp -d)
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:00000000-0000-0000-0000-0000000be9c4

bin/verbs4j nvmf bench -a "$RIG_ADDR" -s "$RIG_NVMET_PORT" -n "$RIG_NVMET_NQN" --runtime "$RUNTIME" \
  --warmup "$WARMUP" --iodepth "$DEPTHS" ${BENCH_OPTS:-} | tee "$out/verbs4j.txt"

nvme connect -t rdma -a "$RIG_ADDR" -s "$RIG_NVMET_PORT" -n "$RIG_NVMET_NQN" -q $HOSTNQN >/dev/null
dev=""
for _ in $(seq 200); do
  for b in /sys/block/nvme*n*; do
    [[ -e $b && ${b##*/} != *c*n* && $(cat "$b/device/subsysnqn") == "$RIG_NVMET_NQN" ]] && dev=/dev/${b##*/}
  done
  [[ -n $dev ]] && break; sleep 0.05
done
[[ -n $dev ]] || { echo "no block device after nvme connect" >&2; exit 1; }
trap 'nvme disconnect -n "$RIG_NVMET_NQN" >/dev/null' EXIT
for rw in randread randwrite; do
  for qd in ${DEPTHS//,/ }; do
    fio --name=k --filename="$dev" --rw=$rw --bs=4k --iodepth="$qd" --ioengine=libaio --direct=1 \
      --runtime="$RUNTIME" --ramp_time="$WARMUP" --time_based --lat_percentiles=1 --output-format=json \
      >"$out/fio-$rw-$qd.json"
  done
done

python3 - "$out" "$DEPTHS" <<'PY'
import json, re, sys
out, depths = sys.argv[1], [int(d) for d in sys.argv[2].split(",")]
ours = {}
for line in open(f"{out}/verbs4j.txt"):
    m = re.match(r"verbs4j (\S+) qd=(\d+) iops=(\S+) p50_us=(\S+) p99_us=(\S+)", line)
    if m:
        ours[(m[1], int(m[2]))] = tuple(float(x) for x in m.group(3, 4, 5))
print()
print("| pattern | QD | verbs4j IOPS | kernel IOPS | IOPS ratio | verbs4j p50 / p99 µs | kernel p50 / p99 µs | p50 ratio |")
print("|---|---|---|---|---|---|---|---|")
for rw in ("randread", "randwrite"):
    for qd in depths:
        job = json.load(open(f"{out}/fio-{rw}-{qd}.json"))["jobs"][0]["read" if rw == "randread" else "write"]
        pct = job["lat_ns"]["percentile"]
        k = (job["iops"], pct["50.000000"] / 1000, pct["99.000000"] / 1000)
        o = ours[(rw, qd)]
        print(f"| {rw} | {qd} | {o[0]:.0f} | {k[0]:.0f} | {o[0] / k[0]:.2f} | {o[1]:.0f} / {o[2]:.0f} "
              f"| {k[1]:.0f} / {k[2]:.0f} | {o[1] / k[1]:.2f} |")
PY
