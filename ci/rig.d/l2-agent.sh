#!/bin/bash
# The pvrdma topology's L2 side of `rig-l2` (L2's command, started by guest-init.sh there): runs each
# job L1 drops into /run/rig/jobs (L1's /run/l2/jobs) and writes its exit status next to it.
#   ID.sh   the job (L1's environment, cd, exec CMD), renamed ID.run when it starts
#   ID.out  its output (L1 created it and tails it)       ID.rc   its exit status, written last
#   ID.kill L1 asks for the job to be killed (rig-l2 interrupted)
set -u
J=/run/rig/jobs
# L2's own RIG_* values (vmw_pvrdma0, its GID index) win over the L1 values a job carries
export RIG_TOPOLOGY=pvrdma   # guest-init set pvrdma-l2, the name of L2's half of it
export -p | grep -E '^declare -x RIG_' > /run/l2-self.env
shopt -s nullglob
declare -A PIDS
echo "l2-agent: serving $J at $(cut -d' ' -f1 /proc/uptime)s"
while [[ ! -e $J/stop ]]; do
  for f in "$J"/*.sh; do
    id=${f##*/}; id=${id%.sh}
    mv "$f" "$J/$id.run" || continue
    ( bash "$J/$id.run" </dev/null >>"$J/$id.out" 2>&1 & p=$!; echo "$p" > "$J/$id.pid"
      wait "$p"; echo $? > "$J/$id.rc.tmp"; mv "$J/$id.rc.tmp" "$J/$id.rc" ) &
    PIDS[$id]=$!
  done
  for f in "$J"/*.kill; do
    id=${f##*/}; id=${id%.kill}; rm -f "$f"
    [[ -s $J/$id.pid ]] && kill "$(cat "$J/$id.pid")" 2>/dev/null
  done
  for id in "${!PIDS[@]}"; do kill -0 "${PIDS[$id]}" 2>/dev/null || unset "PIDS[$id]"; done
  sleep 0.1
done
