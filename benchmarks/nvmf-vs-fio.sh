#!/usr/bin/env bash
# 4 KiB random read and write, queue depths 1/16/32: verbs4j's NVMe-oF host (bin/verbs4j nvmf bench)
# next to fio on the kernel initiator (nvme-rdma, libaio, O_DIRECT), same target, same boot.
# Run in the rig:  ci/rig sh --topology nvmet benchmarks/nvmf-vs-fio.sh
#   RUNTIME (s per run, default 10)  WARMUP (s, default 2)  DEPTHS (default 1,16,32)
#   BENCH_OPTS (more options for verbs4j's side, e.g. "--progress thread --spin-us 0" or "-i 2")
# Latency on both sides is submit-to-completion (fio: lat_ns percentiles).
# CPU on both sides is the whole guest's over the measured part of each run (/proc/stat: every CPU,
# the target's and the softirqs' time included): the busy fraction (all but idle and iowait) and
# busy CPU µs per I/O. verbs4j's bench reads it around each run; for fio a sampler reads it after
# the ramp and just before the end.
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
# /proc/stat's cpu lines at two moments inside fio's measured window (after its ramp_time)
sample_cpu() {
  local base=$1
  sleep "$(awk -v w="$WARMUP" 'BEGIN { print w + 0.2 }')"; grep '^cpu' /proc/stat >"$base.start"
  sleep "$(awk -v r="$RUNTIME" 'BEGIN { print r - 0.4 }')"; grep '^cpu' /proc/stat >"$base.end"
}
for rw in randread randwrite; do
  for qd in ${DEPTHS//,/ }; do
    sample_cpu "$out/cpu-$rw-$qd" &
    sampler=$!
    fio --name=k --filename="$dev" --rw=$rw --bs=4k --iodepth="$qd" --ioengine=libaio --direct=1 \
      --runtime="$RUNTIME" --ramp_time="$WARMUP" --time_based --lat_percentiles=1 --output-format=json \
      >"$out/fio-$rw-$qd.json"
    wait $sampler
  done
done

python3 - "$out" "$DEPTHS" <<'PY'
import json, re, sys
out, depths = sys.argv[1], [int(d) for d in sys.argv[2].split(",")]

def busy_fraction(start, end):
    """Guest-wide busy share of all CPUs between two /proc/stat snapshots, and the CPU count."""
    def ticks(path):
        f = [int(x) for x in open(path).readline().split()[1:9]]  # user..steal
        return sum(f) - f[3] - f[4], sum(f)                      # busy: all but idle, iowait
    (b0, t0), (b1, t1) = ticks(start), ticks(end)
    cpus = sum(1 for line in open(start) if re.match(r"cpu\d", line))
    return (b1 - b0) / (t1 - t0), cpus

ours = {}
for line in open(f"{out}/verbs4j.txt"):
    m = re.match(r"verbs4j (\S+) qd=(\d+) iops=(\S+) p50_us=(\S+) p99_us=(\S+)", line)
    cpu = re.search(r"sys_busy=(\S+) cpu_us_per_io=(\S+)", line)
    if m and cpu:
        ours[(m[1], int(m[2]))] = tuple(float(x) for x in m.group(3, 4, 5) + cpu.group(1, 2))
print()
print("| pattern | QD | verbs4j IOPS | kernel IOPS | IOPS ratio | verbs4j p50 / p99 µs | kernel p50 / p99 µs | p50 ratio "
      "| CPU busy verbs4j / kernel | CPU µs per I/O verbs4j / kernel |")
print("|---|---|---|---|---|---|---|---|---|---|")
for rw in ("randread", "randwrite"):
    for qd in depths:
        job = json.load(open(f"{out}/fio-{rw}-{qd}.json"))["jobs"][0]["read" if rw == "randread" else "write"]
        pct = job["lat_ns"]["percentile"]
        busy, cpus = busy_fraction(f"{out}/cpu-{rw}-{qd}.start", f"{out}/cpu-{rw}-{qd}.end")
        k = (job["iops"], pct["50.000000"] / 1000, pct["99.000000"] / 1000, busy, busy * cpus * 1e6 / job["iops"])
        o = ours[(rw, qd)]
        print(f"| {rw} | {qd} | {o[0]:.0f} | {k[0]:.0f} | {o[0] / k[0]:.2f} | {o[1]:.0f} / {o[2]:.0f} "
              f"| {k[1]:.0f} / {k[2]:.0f} | {o[1] / k[1]:.2f} | {o[3]:.2f} / {k[3]:.2f} | {o[4]:.0f} / {k[4]:.0f} |")
PY
