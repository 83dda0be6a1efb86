#!/bin/bash
# PID 1 of the rig guest (started by the initramfs via rig.init=).  The root filesystem is the
# host's, read-only over 9p with a tmpfs overlay, so this runs the host's bash, kmod, iproute2
# and rdma-core.  Parameters come from the kernel command line as rig.NAME=VALUE.
ts() { [[ ${P[debug]:-0} == 1 ]] && echo "rig-guest: $(cut -d' ' -f1 /proc/uptime)s $*"; return 0; }
power_off() {
  sync
  echo "rig-guest: powering off at $(cut -d' ' -f1 /proc/uptime)s"
  busybox poweroff -f 2>/dev/null || echo o > /proc/sysrq-trigger
  sleep 10
}
# a broken guest set-up is reported to the host (which retries the boot) instead of running the command
setup_failed() {
  echo "rig-guest: SETUP FAILED: $*"
  echo "rig: guest set-up failed: $*" >> /run/rig/out.log
  echo "$*" > /run/rig/setup-failed
  power_off
}

main() {
  export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=${TERM:-dumb}
  exec </dev/console >/dev/console 2>&1
  T0=$(cut -d' ' -f1 /proc/uptime)
  declare -gA P
  for a in $(cat /proc/cmdline); do [[ $a == rig.*=* ]] && { k=${a%%=*}; P[${k#rig.}]=${a#*=}; }; done
  RIG_D=$(dirname "${P[init]}")

  mount -t tmpfs -o mode=755 tmpfs /run
  mkdir -p /dev/pts /dev/shm /dev/mqueue /run/rig
  mount -t devpts -o ptmxmode=666 devpts /dev/pts
  mount -t tmpfs tmpfs /dev/shm
  mount -t mqueue mqueue /dev/mqueue
  # devtmpfs lacks these (udev/systemd would add them); bash process substitution needs /dev/fd
  ln -sfn /proc/self/fd /dev/fd
  ln -sf /proc/self/fd/0 /dev/stdin; ln -sf /proc/self/fd/1 /dev/stdout; ln -sf /proc/self/fd/2 /dev/stderr
  mount -t tmpfs tmpfs /var/tmp
  hostname rig
  echo "127.0.0.1 localhost rig" > /etc/hosts
  # exchange dir with the host; cache=none so the host sees out.log grow while the command runs
  mount -t 9p -o trans=virtio,version=9p2000.L,cache=none,msize=524288 rigxfer /run/rig ||
    { echo "rig-guest: cannot mount the exchange dir"; power_off; }
  # the guest kernel's modules from the unpacked .deb: the host's modprobe then just works
  mkdir -p "/lib/modules/$(uname -r)"
  mount --bind "${P[moddir]}" "/lib/modules/$(uname -r)" || setup_failed "cannot bind the module tree"
  # the repository root, read-write at its host path (build output and reports land on the host)
  mkdir -p "${P[rw]}"
  mount -t 9p -o trans=virtio,version=9p2000.L,cache=mmap,msize=524288 rigrw0 "${P[rw]}" ||
    setup_failed "cannot mount ${P[rw]} read-write"
  ts "mounts done"

  ip link set lo up
  # shellcheck source=topology.sh
  . "$RIG_D/topology.sh"
  topology_setup "${P[topology]}" || setup_failed "topology ${P[topology]}: $TOPOLOGY_ERROR"
  ts "topology ${P[topology]} ready"

  ulimit -l unlimited      # verbs memory registration pins pages
  ulimit -n 65536
  export RIG_GUEST=1 RIG_TOPOLOGY=${P[topology]}
  [[ -f /run/rig/env.sh ]] && . /run/rig/env.sh
  cd "${RIG_CWD:-/}" || setup_failed "cannot cd to $RIG_CWD"
  echo "rig-guest: ready at $(cut -d' ' -f1 /proc/uptime)s (init started at ${T0}s)"
  cut -d' ' -f1 /proc/uptime > /run/rig/ready

  if [[ ${P[mode]} == shell ]]; then
    echo "rig-guest: interactive shell in $PWD (topology $RIG_TOPOLOGY); 'exit' powers off"
    setsid -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
  else
    bash /run/rig/cmd.sh </dev/null >>/run/rig/out.log 2>&1
    echo $? > /run/rig/rc
  fi
  power_off
}
main "$@"; exit $?   # one line on purpose: bash reads scripts lazily, edits during a run are safe
