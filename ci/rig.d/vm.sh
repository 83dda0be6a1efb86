# shellcheck shell=bash
# Host side of one guest run for ci/rig (sourced): run directory, QEMU command line, watchdog.
# The run directory is shared with the guest (9p tag rigxfer, /run/rig in the guest):
#   cmd.sh env.sh (host -> guest), out.log ready rc setup-failed (guest -> host), console.log

# $1 = bash script the guest runs in the repository root (empty for the interactive shell)
new_run() {
  # keep the 20 most recent run directories (console.log and out.log help post-mortems)
  { ls -1dt "$RIG_CACHE"/runs/run.* 2>/dev/null || true; } | tail -n +20 | while read -r d; do rm -rf "$d"; done
  RUN=$(mktemp -d "$RIG_CACHE/runs/run.XXXXXX")
  printf '%s\n' "$1" > "$RUN/cmd.sh"
  local v java_home=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
  local jto=${JAVA_TOOL_OPTIONS:-}
  [[ " $jto " == *" $RIG_JAVA_OPTS "* ]] || jto="$RIG_JAVA_OPTS $jto"
  jto=$(echo $jto)   # squeeze blanks
  {
    for v in HOME LANG LC_ALL MAVEN_OPTS ${RIG_ENV:-}; do
      [[ -n ${!v+x} ]] && printf 'export %s=%q\n' "$v" "${!v}"
    done
    printf 'export JAVA_HOME=%q\n' "$java_home"
    # the host's default `java` may be an older JDK; the guest's `java` is $JAVA_HOME's
    printf 'export PATH=%q\n' "$java_home/bin:$PATH"
    [[ -n $jto ]] && printf 'export JAVA_TOOL_OPTIONS=%q\n' "$jto"
    printf 'export RIG_CWD=%q\n' "$REPO_ROOT"
  } > "$RUN/env.sh"
}

qemu_argv() {   # $1 = topology, $2 = mode (cmd|shell); sets QEMU=(...)
  local accel=(-accel "tcg,thread=$RIG_TCG_THREAD" -cpu "$RIG_CPU")
  [[ $RIG_ACCEL == kvm ]] && accel=(-accel kvm -cpu host)
  [[ $REPO_ROOT$KDIR$RIG_DIR != *[[:space:],]* ]] || die "paths with blanks or commas are not supported"
  local append="console=ttyS0 quiet panic=-1 mitigations=off tsc=reliable"
  append+=" rig.init=$RIG_DIR/guest-init.sh rig.moddir=$KDIR rig.rw=$REPO_ROOT"
  append+=" rig.topology=$1 rig.mode=$2 rig.debug=$RIG_VERBOSE"
  # the L2 guest's kernel, initramfs and driver (L1 reads them from the host root at the same paths)
  if [[ $1 == pvrdma ]]; then
    append+=" rig.vmlinux=$VMLINUX rig.initrd=$INITRD rig.pvrdma=$PVRDMA_KO rig.l2accel=$RIG_L2_ACCEL"
    append+=" rig.l2mem=$RIG_L2_MEM rig.l2smp=$RIG_L2_SMP rig.l2boot=$RIG_L2_BOOT_TIMEOUT"
  fi
  local console=(-serial "file:$RUN/console.log")
  [[ $2 == shell ]] && console=(-serial mon:stdio)
  # No NIC at all (-nic none on top of -nodefaults): the guest has no network path out.
  QEMU=("${QEMU_BIN[@]}" -machine q35 "${accel[@]}" -smp "$RIG_SMP" -m "$RIG_MEM"
    -nodefaults -no-user-config -nic none -display none -no-reboot -monitor none "${console[@]}"
    -kernel "$VMLINUX" -initrd "$INITRD" -append "$append"
    -fsdev "local,id=hr,path=/,security_model=none,readonly=on,multidevs=remap"
    -device virtio-9p-pci,fsdev=hr,mount_tag=hostroot
    -fsdev "local,id=xf,path=$RUN,security_model=none"
    -device virtio-9p-pci,fsdev=xf,mount_tag=rigxfer
    -fsdev "local,id=rw0,path=$REPO_ROOT,security_model=none,multidevs=remap"
    -device virtio-9p-pci,fsdev=rw0,mount_tag=rigrw0
    -device virtio-rng-pci)
}

QPID=""; TPIDS=()
stop_guest() {   # kill exactly what we started, never by name
  [[ -n $QPID ]] && kill -KILL "$QPID" 2>/dev/null
  local p; for p in "${TPIDS[@]}"; do kill "$p" 2>/dev/null; done
  return 0
}
trap 'stop_guest; exit 130' INT
trap 'stop_guest; exit 143' TERM HUP

# Boots the guest that runs $RUN/cmd.sh and returns the command's exit status (124 overall
# timeout, 125 boot failure or crash).  Written without relying on errexit: callers use `||`.
boot_cmd() {   # $1 = topology
  qemu_argv "$1" cmd || return 125
  [[ $RIG_VERBOSE == 1 ]] && log "${QEMU[*]}"
  local attempt=1 t0=$SECONDS qrc state tstart p rc
  while :; do
    rm -f "$RUN/rc" "$RUN/ready" "$RUN/setup-failed"; : > "$RUN/out.log"; : > "$RUN/console.log"
    "${QEMU[@]}" </dev/null >"$RUN/qemu.log" 2>&1 &
    QPID=$!
    # the guest writes the command's output straight into out.log over 9p; stream it live
    tail -s 0.2 -n +1 -f --pid="$QPID" "$RUN/out.log" & TPIDS=($!)
    if [[ $RIG_VERBOSE == 1 ]]; then tail -s 0.2 -n +1 -f --pid="$QPID" "$RUN/console.log" >&2 & TPIDS+=($!); fi
    # a TCG boot can wedge early (rare); retry those, and enforce the overall deadline
    tstart=$SECONDS; state=running
    while kill -0 "$QPID" 2>/dev/null; do
      if [[ ! -e $RUN/ready ]] && ((SECONDS - tstart > RIG_BOOT_TIMEOUT)); then state=bootfail; break; fi
      if ((SECONDS - t0 > RIG_TIMEOUT)); then state=timeout; break; fi
      sleep 0.2
    done
    [[ $state != running ]] && kill -KILL "$QPID" 2>/dev/null
    qrc=0; wait "$QPID" 2>/dev/null || qrc=$?
    QPID=""
    for p in "${TPIDS[@]}"; do wait "$p" 2>/dev/null || true; done; TPIDS=()
    [[ $state == running && -e $RUN/setup-failed ]] && state=bootfail
    if [[ $state == bootfail ]]; then
      cp "$RUN/console.log" "$RUN/console.attempt$attempt.log"
      log "guest not ready (attempt $attempt of $RIG_BOOT_RETRIES); console tail:"
      tail -n 15 "$RUN/console.log" >&2
      [[ -s $RUN/setup-failed ]] && log "topology set-up failed: $(cat "$RUN/setup-failed")"
      for p in l2-console l2-qemu; do [[ -e $RUN/$p.log ]] && mv "$RUN/$p.log" "$RUN/$p.attempt$attempt.log"; done
      if ((attempt < RIG_BOOT_RETRIES && SECONDS - t0 < RIG_TIMEOUT)); then attempt=$((attempt + 1)); continue; fi
      log "giving up: the guest did not come up (logs in $RUN)"
      return 125
    fi
    break
  done
  if [[ $state == timeout ]]; then
    log "TIMEOUT after ${RIG_TIMEOUT}s (logs in $RUN); console tail:"; tail -n 30 "$RUN/console.log" >&2
    return 124
  fi
  if [[ -s $RUN/rc ]]; then
    rc=$(cat "$RUN/rc")
    log "exit $rc (wall $((SECONDS - t0))s, guest ready at $(cat "$RUN/ready" 2>/dev/null || echo ?)s uptime; logs in $RUN)"
    return "$rc"
  fi
  log "guest died without an exit status (qemu rc=$qrc); console tail:"
  tail -n 40 "$RUN/console.log" >&2; cat "$RUN/qemu.log" >&2
  return 125
}

boot_shell() {   # $1 = topology; the serial console is this terminal
  qemu_argv "$1" shell
  exec "${QEMU[@]}"
}
