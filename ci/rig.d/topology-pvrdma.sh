# shellcheck shell=bash
# The pvrdma topology (sourced by topology.sh): inside the rig guest (L1, with rxe0 as in single)
# a second guest (L2) under Debian 12's QEMU 7.2, the last QEMU with `-device pvrdma`, with a
# vmxnet3 at function 0 and a pvrdma at function 1 of one slot, backed by L1's rxe0.  L2 boots the
# rig's kernel and initramfs and sees L1's whole file tree (so the host's) read-only over 9p, the
# repository read-write; its PID 1 is guest-init.sh again, whose command is l2-agent.sh: commands
# reach it through /run/l2 (`rig-l2 CMD` in L1).
#
# L2's network: vmxnet3 `vmx0` (10.77.0.2, on an isolated QEMU hub: it only gives the PVRDMA device
# its GIDs) and virtio-net `tcp0` (10.76.0.2) on L1's tap `l2tcp` (10.76.0.1), the TCP path between
# the two guests that the pingpongs' out-of-band exchange uses.  No path out of either guest.
#
# QEMU's pvrdma maps each GID the guest adds to rxe0's GID with the same 16 bytes, and refuses
# backend index 0 (a work request's own GID index 0 too): L2's IPv4 and link-local addresses are
# put on rig0 as well.  Its UD path caches one address handle per destination GID for the whole
# QEMU process, made in the PD of the first QP that sent there: a later UD QP (another PD) sending
# to that GID fails with "local QP operation error" on rxe0.  So L1 has spare addresses
# ($L1_UD_ADDRS, GID indexes in RIG_L1_UD_GIDS), one fresh destination for each UD run.
# No rdma_cm in L2: the MAD channel is a null chardev (rdmacm-mux is not packaged), so L2
# exchanges QP numbers over TCP as ibv_rc_pingpong does.

L2_DIR=/run/l2
L2_MAC=52:54:00:4d:00:02
L2_LINK_LOCAL=fe80::5054:ff:fe4d:2
L2_ADDR=10.77.0.2          # vmx0's address, the source of vmw_pvrdma0's GIDs
L2_TCP_ADDR=10.76.0.2      # L2's end of the TCP path
L1_TCP_ADDR=10.76.0.1      # L1's end (tap l2tcp)
L1_UD_ADDRS="10.77.0.21 10.77.0.22 10.77.0.23 10.77.0.24 10.77.0.25 10.77.0.26 10.77.0.27 10.77.0.28"
L1_MAC=52:54:00:4d:00:01   # what L2 resolves rxe0's addresses to (the emulation addresses rxe0 by GID)

# rxe0 has a GID with these 16 bytes ($2: sysfs notation), of any type
rxe_has_gid() {
  local _; for _ in $(seq 100); do grep -qsx "$2" /sys/class/infiniband/"$1"/ports/1/gids/* && return 0; sleep 0.1; done
  return 1
}

# -accel for L2: KVM inside L1 (L1's -cpu max exposes SVM to kvm_amd), else nested TCG
l2_accel() {
  local want=${P[l2accel]:-auto}
  if [[ $want != tcg ]] && modprobe kvm_amd 2>/dev/null && [[ -c /dev/kvm ]]; then
    L2_ACCEL=(-accel kvm -cpu host); RIG_L2_ACCEL=kvm
  elif [[ $want == kvm ]]; then
    t_fail "L2 under KVM asked for, but kvm_amd does not load in L1"; return
  else
    L2_ACCEL=(-accel tcg,thread=single -cpu max); RIG_L2_ACCEL=tcg
  fi
}

# L2's console and QEMU log into the host's run directory (L1's /run/l2 vanishes with L1)
l2_post_mortem() { cp $L2_DIR/console.log /run/rig/l2-console.log; cp $L2_DIR/qemu.log /run/rig/l2-qemu.log; }

topo_pvrdma() {
  local f t0=$SECONDS
  for f in vmlinux initrd pvrdma; do [[ -s ${P[$f]:-} ]] || { t_fail "no rig.$f file (${P[$f]:-unset})"; return; }; done
  ip addr add $L2_ADDR/24 dev rig0 && ip -6 addr add $L2_LINK_LOCAL/64 dev rig0 nodad ||
    t_fail "cannot put L2's addresses on rig0" || return
  rxe_has_gid rxe0 0000:0000:0000:0000:0000:ffff:0a4d:0002 && rxe_has_gid rxe0 fe80:0000:0000:0000:5054:00ff:fe4d:0002 ||
    t_fail "rxe0 has no GIDs for L2's addresses" || return
  local a g ud_gids=()
  for a in $L1_UD_ADDRS; do
    ip addr add "$a/24" dev rig0 && g=$(gid_index rxe0 "$a") || t_fail "no rxe0 GID for $a" || return
    ud_gids+=("$g")
  done
  l2_accel || return
  modprobe tun && ip tuntap add dev l2tcp mode tap && ip addr add $L1_TCP_ADDR/24 dev l2tcp && ip link set l2tcp up ||
    t_fail "cannot create tap l2tcp" || return
  mkdir -p $L2_DIR/jobs
  echo "exec bash $(printf %q "$RIG_D/l2-agent.sh")" > $L2_DIR/cmd.sh
  echo "export RIG_CWD=/" > $L2_DIR/env.sh
  local append="console=ttyS0 quiet panic=-1 mitigations=off tsc=reliable"
  append+=" rig.init=$RIG_D/guest-init.sh rig.moddir=${P[moddir]} rig.rw=${P[rw]} rig.topology=pvrdma-l2"
  append+=" rig.mode=cmd rig.debug=${P[debug]:-0} rig.pvrdma=${P[pvrdma]}"
  # QEMU registers L2's memory regions and queues on rxe0: pinned memory, beyond the default memlock
  ulimit -l unlimited
  # L2's RAM must be a shared memory backend on the NUMA node: QEMU's pvrdma maps guest pages for rxe0
  /usr/bin/qemu-system-x86_64 -M pc "${L2_ACCEL[@]}" -smp "${P[l2smp]:-1}" -m "${P[l2mem]:-1G}" \
    -object memory-backend-ram,id=l2mem,size="${P[l2mem]:-1G}",share=on -numa node,memdev=l2mem \
    -nodefaults -no-user-config -display none -no-reboot -monitor none -serial file:$L2_DIR/console.log \
    -kernel "${P[vmlinux]}" -initrd "${P[initrd]}" -append "$append" \
    -fsdev local,id=hr,path=/,security_model=none,readonly=on,multidevs=remap \
    -device virtio-9p-pci,fsdev=hr,mount_tag=hostroot \
    -fsdev local,id=xf,path=$L2_DIR,security_model=none -device virtio-9p-pci,fsdev=xf,mount_tag=rigxfer \
    -fsdev "local,id=rw0,path=${P[rw]},security_model=none,multidevs=remap" -device virtio-9p-pci,fsdev=rw0,mount_tag=rigrw0 \
    -netdev hubport,id=vmx,hubid=0 \
    -device vmxnet3,netdev=vmx,addr=10.0,multifunction=on,mac=$L2_MAC \
    -chardev null,id=mads -device pvrdma,addr=10.1,ibdev=rxe0,ibport=1,netdev=rig0,mad-chardev=mads \
    -netdev tap,id=tcp,ifname=l2tcp,script=no,downscript=no -device virtio-net-pci,netdev=tcp,mac=52:54:00:4d:01:02 \
    -device virtio-rng-pci -d guest_errors,cpu_reset -D $L2_DIR/qemu-debug.log </dev/null >$L2_DIR/qemu.log 2>&1 &
  echo $! > $L2_DIR/qemu.pid
  # nested TCG needs about a minute to reach L2's init; KVM about 10 s
  while [[ ! -e $L2_DIR/ready ]]; do
    [[ -e $L2_DIR/setup-failed ]] && { l2_post_mortem; t_fail "L2: $(cat $L2_DIR/setup-failed)"; return; }
    kill -0 "$(cat $L2_DIR/qemu.pid)" 2>/dev/null || { l2_post_mortem; t_fail "L2's QEMU exited: $(tail -n 3 $L2_DIR/qemu.log | xargs)"; return; }
    ((SECONDS - t0 < ${P[l2boot]:-240})) || { l2_post_mortem; t_fail "L2 not ready after ${P[l2boot]:-240}s"; return; }
    sleep 0.2
  done
  # should L2's QEMU end before L1 does, its logs and when it ended go to the host's run directory
  local qpid; qpid=$(cat $L2_DIR/qemu.pid)
  ( while kill -0 "$qpid" 2>/dev/null; do sleep 1; done
    echo "L2's QEMU ended at $(cut -d' ' -f1 /proc/uptime)s of L1's uptime" > /run/rig/l2-ended.txt
    l2_post_mortem; tail -c 20000 $L2_DIR/qemu-debug.log > /run/rig/l2-qemu-debug.log ) &
  ln -sfn "$RIG_D/rig-l2" /usr/local/bin/rig-l2
  . $L2_DIR/l2.env   # RIG_L2_DEVICE, RIG_L2_GID_INDEX: written by L2 once vmw_pvrdma0 has its GID
  export RIG_L2_ADDR=$L2_TCP_ADDR RIG_L2_ACCEL RIG_L2_READY=$(( SECONDS - t0 )) RIG_L1_UD_GIDS="${ud_gids[*]}"
}

# In L2 (rig.topology=pvrdma-l2): the NICs by driver, vmw_pvrdma on top, vmw_pvrdma0's RoCE v1 GID
# (sysfs names the type "IB/RoCE v1")
topo_pvrdma_l2() {
  local n d g
  modprobe -a vmxnet3 virtio_net ib_uverbs || t_fail "cannot load vmxnet3/virtio_net/ib_uverbs" || return
  insmod "${P[pvrdma]}" || t_fail "insmod ${P[pvrdma]} failed" || return
  for n in /sys/class/net/*; do
    d=$(basename "$(readlink "$n/device/driver" 2>/dev/null)")
    case $d in
      vmxnet3)    ip link set "${n##*/}" name vmx0 ;;
      virtio_net) ip link set "${n##*/}" name tcp0 ;;
    esac
  done
  ip addr add $L2_ADDR/24 dev vmx0 && ip link set vmx0 up && ip addr add $L2_TCP_ADDR/24 dev tcp0 &&
    ip link set tcp0 up || t_fail "cannot configure vmx0/tcp0" || return
  # RTR and create_ah resolve the peer's MAC through vmx0 (ib_core, RoCE); nothing on vmx0's isolated
  # hub answers ARP, and the emulation addresses rxe0 by GID, not MAC: fixed neighbours for rxe0's
  # addresses
  local a
  for a in 10.77.0.1 $L1_UD_ADDRS; do
    ip neigh replace "$a" lladdr $L1_MAC dev vmx0 nud permanent || t_fail "neighbour $a" || return
  done
  for _ in $(seq 100); do [[ -d /sys/class/infiniband/vmw_pvrdma0 ]] && break; sleep 0.1; done
  # the GID follows the address through the device's add_bind command: seconds under nested TCG
  for _ in $(seq 6); do g=$(gid_index vmw_pvrdma0 $L2_ADDR "IB/RoCE v1") && break; done
  if [[ -z $g ]]; then
    dmesg | grep -iE 'pvrdma|vmxnet3' | tail -n 20
    grep -H . /sys/class/infiniband/*/ports/1/gids/[0-3] /sys/class/infiniband/*/ports/1/gid_attrs/types/[0-3]
    t_fail "vmw_pvrdma0: no RoCE v1 GID for $L2_ADDR"; return
  fi
  export RIG_DEVICE=vmw_pvrdma0 RIG_GID_INDEX=$g RIG_ADDR=$L2_ADDR RIG_PEER_ADDR=$L1_TCP_ADDR RIG_L2=1
  printf 'export RIG_L2_DEVICE=vmw_pvrdma0 RIG_L2_GID_INDEX=%s\n' "$g" > /run/rig/l2.env
}
