# shellcheck shell=bash
# Host side set-up for ci/rig (sourced): host packages, guest kernel, QEMU, initramfs.
# Everything goes into $RIG_CACHE; nothing is installed into /boot or the host's /lib/modules.

# qemu-system-x86: emulator (and the shared libraries the backports build needs);
# busybox-static: initramfs userland; kmod/cpio: module deps and packing; nvme-cli/fio: the kernel
# NVMe-oF initiator side of the nvmet topology; the rest is the RDMA
# userspace the guest runs from the shared host root (the `rdma` tool is in iproute2).
HOST_PKGS="qemu-system-x86 busybox-static kmod cpio xz-utils util-linux iproute2 rdma-core
 ibverbs-providers ibverbs-utils libibverbs-dev librdmacm-dev rdmacm-utils perftest infiniband-diags
 nvme-cli fio"
# modules the initramfs needs to reach the 9p root (q35: virtio over PCI)
INITRD_MODS="virtio_pci 9pnet_virtio 9p overlay"

setup() {
  mkdir -p "$RIG_CACHE/debs" "$RIG_CACHE/runs"
  setup_packages
  if [[ -n ${RIG_KSUITE:-} ]]; then setup_kernel_suite; else setup_kernel; fi
  setup_qemu
  setup_initrd
}

# apt/dpkg may be busy (unattended upgrades, another job): retry while the lock is held
apt_retry() {
  local i out; out=$(mktemp)
  for i in $(seq 30); do
    if "$@" -o DPkg::Lock::Timeout=60 >"$out" 2>&1; then rm -f "$out"; return 0; fi
    grep -qiE 'could not get lock|unable to acquire|is held by|lock-frontend' "$out" || break
    log "apt lock is held; retrying ($i)"; sleep 10
  done
  cat "$out" >&2; rm -f "$out"; return 1
}

setup_packages() {
  local p missing=() have
  have=" $(dpkg-query -W -f='${Package}=${db:Status-Status} ' $HOST_PKGS 2>/dev/null || true) "
  for p in $HOST_PKGS; do [[ $have == *" $p=installed "* ]] || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  log "installing host packages: ${missing[*]}"
  # refresh the package lists only if apt does not know a candidate for some package
  for p in "${missing[@]}"; do
    if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [^(]'; then
      apt_retry apt-get update -qq || die "apt-get update failed"; break
    fi
  done
  DEBIAN_FRONTEND=noninteractive apt_retry apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
    die "apt-get install ${missing[*]} failed"
}

setup_kernel() {
  local kpkg=${RIG_KPKG:-} kroot
  if [[ -z $kpkg && -s $RIG_CACHE/kpkg ]]; then kpkg=$(cat "$RIG_CACHE/kpkg"); fi
  if [[ -z $kpkg ]]; then
    # the flavour Debian's meta package currently points at
    apt-cache show linux-image-amd64 >/dev/null 2>&1 || apt_retry apt-get update -qq || die "apt-get update failed"
    kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
    [[ -n $kpkg ]] || die "cannot resolve the package linux-image-amd64 depends on"
  fi
  kroot=$RIG_CACHE/kernel/$kpkg
  if [[ ! -f $kroot/.unpacked ]]; then
    log "downloading $kpkg"
    rm -f "$RIG_CACHE/debs/${kpkg}_"*.deb
    (cd "$RIG_CACHE/debs" && apt_retry apt-get download -o APT::Sandbox::User=root "$kpkg") ||
      die "apt-get download $kpkg failed"
    rm -rf "$kroot"; mkdir -p "$kroot"
    dpkg -x "$RIG_CACHE/debs/${kpkg}_"*.deb "$kroot"
    rm -f "$RIG_CACHE/debs/${kpkg}_"*.deb
    touch "$kroot/.unpacked"
  fi
  echo "$kpkg" > "$RIG_CACHE/kpkg"
  kernel_tree "$kroot"
}

# KVER KROOT KDIR VMLINUX of an unpacked kernel tree; depmod and the ELF vmlinux on first use
kernel_tree() {
  local kroot=$1
  KVER=$(ls "$kroot/lib/modules" | head -n1)
  KROOT=$kroot
  KDIR=$kroot/lib/modules/$KVER
  [[ -f $KDIR/modules.dep.bin ]] || depmod -b "$kroot" "$KVER"   # the .deb ships no modules.dep
  # An uncompressed ELF vmlinux boots through QEMU's PVH entry: no firmware real-mode phase and
  # no xz decompression inside the emulated guest (kernel start to init ~9 s -> ~4 s under TCG).
  VMLINUX=$kroot/vmlinux-$KVER
  [[ -s $VMLINUX ]] || extract_vmlinux "$kroot/boot/vmlinuz-$KVER" "$VMLINUX" ||
    die "cannot extract vmlinux from $kroot/boot/vmlinuz-$KVER"
}

# like the kernel's scripts/extract-vmlinux: find the compressed payload inside the bzImage
extract_vmlinux() {
  local in=$1 out=$2 i off
  local magics=($'\xfd7zXZ' $'\x28\xb5\x2f\xfd' $'\x1f\x8b\x08') tools=("xz -dc" "zstd -dcq" "gzip -dc")
  for i in 0 1 2; do
    command -v "${tools[i]%% *}" >/dev/null || continue
    for off in $(LC_ALL=C grep -abo "${magics[i]}" "$in" 2>/dev/null | cut -d: -f1 | head -n 5); do
      tail -c +$((off + 1)) "$in" | ${tools[i]} > "$out.tmp" 2>/dev/null || true
      if [[ $(head -c 4 "$out.tmp" | od -An -tx1 | tr -d ' ') == 7f454c46 ]]; then   # ELF magic
        mv "$out.tmp" "$out"; return 0
      fi
    done
  done
  rm -f "$out.tmp"; return 1
}

# --- second kernel: a newer Debian suite (RIG_KSUITE), e.g. trixie-backports' 7.x for rxe per netns ---
# Pinned kernel version per suite.  Backports keeps only its newest builds in the index, so a pin
# that has left it falls back to what the suite's linux-image-amd64 points at (and says so).
declare -A KSUITE_PIN=([trixie-backports]=7.3.4+deb13-amd64)

# apt-get/apt-cache options of a private apt config for suite $1 (sets KSUITE_APT); no host state
ksuite_apt() {
  local a=$RIG_CACHE/apt-$1 src uri key
  src=$(debian_source) || die "no apt source for bookworm found in /etc/apt (needed for the $1 mirror)"
  read -r uri key <<<"$src"
  mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/sources.list.d" "$a/debs"
  echo "deb [${key:+signed-by=$key }arch=amd64] $uri $1 main" > "$a/sources.list"
  KSUITE_APT=(-o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts="$a/sources.list.d"
              -o Dir::State::Lists="$a/lists" -o Dir::Cache="$a/cache" -o APT::Architecture=amd64)
  KSUITE_DEBS=$a/debs
}

# The packages that make up kernel version $1 in the private index: split since 6.19
# (linux-binary-unsigned + linux-modules + linux-base), one linux-image package before.
ksuite_pkgs() {
  local v=$1 p
  if apt-cache "${KSUITE_APT[@]}" show "linux-binary-unsigned-$v" >/dev/null 2>&1; then
    for p in "linux-binary-unsigned-$v" "linux-modules-$v" "linux-base-$v"; do
      apt-cache "${KSUITE_APT[@]}" show "$p" >/dev/null 2>&1 || return 1
    done
    echo "linux-binary-unsigned-$v linux-modules-$v linux-base-$v"
  elif apt-cache "${KSUITE_APT[@]}" show "linux-image-$v" 2>/dev/null | grep -q '^Installed-Size: [0-9]\{5,\}'; then
    echo "linux-image-$v"   # monolithic (a split meta is only a few kB)
  else return 1; fi
}

setup_kernel_suite() {
  local suite=$RIG_KSUITE v pkgs kroot want d
  [[ -n ${KSUITE_PIN[$suite]+x} ]] || die "RIG_KSUITE=$suite: no kernel pin for it (known: ${!KSUITE_PIN[*]})"
  want=${RIG_KPKG:-linux-image-${KSUITE_PIN[$suite]}}; v=${want#linux-image-}
  # an unpacked pin (or the fallback chosen last time) needs no network
  if [[ ! -f $RIG_CACHE/kernel/linux-image-$v/.unpacked && -z ${RIG_KPKG:-} && -s $RIG_CACHE/kpkg-$suite ]]; then
    d=$(cat "$RIG_CACHE/kpkg-$suite")
    [[ -f $RIG_CACHE/kernel/$d/.unpacked ]] && { log "kernel pin $want not unpacked; using $d (chosen before)"; v=${d#linux-image-}; }
  fi
  kroot=$RIG_CACHE/kernel/linux-image-$v
  if [[ ! -f $kroot/.unpacked ]]; then
    ksuite_apt "$suite"
    log "fetching the $suite kernel index (private apt config in $RIG_CACHE/apt-$suite)"
    apt_retry apt-get "${KSUITE_APT[@]}" update -qq || die "apt-get update for $suite failed"
    if ! pkgs=$(ksuite_pkgs "$v"); then
      d=$(apt-cache "${KSUITE_APT[@]}" depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')
      [[ -n $d ]] || die "$want is not in $suite and linux-image-amd64 there depends on no linux-image-*"
      log "WARNING: kernel pin $want is no longer in $suite; falling back to $d (what its linux-image-amd64 depends on)"
      v=${d#linux-image-}; kroot=$RIG_CACHE/kernel/linux-image-$v
      pkgs=$(ksuite_pkgs "$v") || die "the packages of $d are not in $suite"
    fi
    if [[ ! -f $kroot/.unpacked ]]; then
      log "downloading $pkgs"
      rm -f "$KSUITE_DEBS/"*.deb
      # shellcheck disable=SC2086  # a word list of package names
      (cd "$KSUITE_DEBS" && apt_retry apt-get "${KSUITE_APT[@]}" download -o APT::Sandbox::User=root $pkgs) ||
        die "apt-get download $pkgs from $suite failed"
      rm -rf "$kroot"; mkdir -p "$kroot"
      for d in "$KSUITE_DEBS/"*.deb; do dpkg -x "$d" "$kroot"; done
      rm -f "$KSUITE_DEBS/"*.deb
      # merged /usr: the host's kmod looks in lib/modules, kernel_tree in boot/
      [[ -e $kroot/lib ]] || ln -s usr/lib "$kroot/lib"
      mkdir -p "$kroot/boot"
      for d in vmlinuz vmlinuz.unsigned; do
        [[ -e $kroot/boot/vmlinuz-$v || ! -f $kroot/usr/lib/modules/$v/$d ]] ||
          ln -s "../usr/lib/modules/$v/$d" "$kroot/boot/vmlinuz-$v"
      done
      touch "$kroot/.unpacked"
    fi
  fi
  echo "linux-image-$v" > "$RIG_CACHE/kpkg-$suite"
  kernel_tree "$kroot"
}

# "URI [SIGNED-BY]" of the apt source that serves bookworm, from this machine's own apt config
debian_source() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f $f ]] || continue
    awk -v RS= '{
        types = suites = uris = key = ""; enabled = 1
        n = split($0, L, "\n")
        for (i = 1; i <= n; i++) {
          if (L[i] ~ /^#/) continue
          if (match(L[i], /^[A-Za-z-]+:/)) {
            k = tolower(substr(L[i], 1, RLENGTH - 1)); v = substr(L[i], RLENGTH + 1)
            if (k == "types") types = v; else if (k == "suites") suites = v
            else if (k == "uris") uris = v; else if (k == "signed-by") key = v
            else if (k == "enabled" && v ~ /no/) enabled = 0
          }
        }
        if (enabled && (" " types " ") ~ /[ \t]deb[ \t]/ && (" " suites " ") ~ /[ \t]bookworm[ \t]/) {
          split(uris, U, " "); split(key, K, " ")
          print U[1], (K[1] ~ /^\// ? K[1] : ""); exit
        }
      }' "$f" | grep . && return 0
  done
  # one-line style: deb [signed-by=...] URI bookworm main
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '
    $1 == "deb" {
      key = ""; i = 2
      if ($2 ~ /^\[/) { while (i <= NF) { if ($i ~ /signed-by=/) { key = $i; sub(/.*signed-by=/, "", key); sub(/\].*/, "", key) }
                                          if ($i ~ /\]$/) { i++; break }; i++ } }
      if ($(i + 1) == "bookworm") { print $i, key; exit }
    }' | grep .
}

# QEMU 10 from bookworm-backports (JVM start ~2x faster than 7.2), unpacked into the cache with a
# private apt config (never installed); falls back to the host's qemu-system-x86_64 (7.2).
setup_qemu() {
  case $RIG_QEMU in
    system) QEMU_BIN=(qemu-system-x86_64); return 0 ;;
    bpo)    ;;
    *)      QEMU_BIN=("$RIG_QEMU"); return 0 ;;
  esac
  local q=$RIG_CACHE/qemu-bpo a=$RIG_CACHE/apt-bpo
  if [[ ! -x $q/usr/bin/qemu-system-x86_64 && ! -f $q.failed ]]; then
    log "fetching qemu-system-x86 from bookworm-backports (unpacked into $q)"
    local src uri key v="" d opts
    if src=$(debian_source); then
      read -r uri key <<<"$src"
      mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/sources.list.d" "$a/debs"
      echo "deb ${key:+[signed-by=$key] }$uri bookworm-backports main" > "$a/sources.list"
      opts=(-o Dir::Etc::SourceList="$a/sources.list" -o Dir::Etc::SourceParts="$a/sources.list.d"
            -o Dir::State::Lists="$a/lists" -o Dir::Cache="$a/cache")
      if apt_retry apt-get "${opts[@]}" update -qq; then
        v=$(apt-cache "${opts[@]}" show qemu-system-x86 | awk '/^Version: .*bpo/{print $2; exit}')
      fi
      rm -rf "$q"; rm -f "$a/debs/"*.deb
      if [[ -n $v ]] && (cd "$a/debs" && apt_retry apt-get "${opts[@]}" download -o APT::Sandbox::User=root \
           qemu-system-x86="$v" qemu-system-common="$v" qemu-system-data="$v"); then
        mkdir -p "$q"
        for d in "$a/debs/"*.deb; do dpkg -x "$d" "$q"; done
      fi
      rm -rf "$a/debs" "$a/cache"
    else
      log "no apt source for bookworm found in /etc/apt"
    fi
    # its shared libraries come from bookworm (pulled in by the host's own qemu-system-x86)
    if ! "$q/usr/bin/qemu-system-x86_64" --version >/dev/null 2>&1; then
      rm -rf "$q"; touch "$q.failed"   # do not retry the download on every run; `rm` it to retry
    fi
  fi
  if [[ -x $q/usr/bin/qemu-system-x86_64 ]]; then
    QEMU_BIN=("$q/usr/bin/qemu-system-x86_64" -L "$q/usr/share/qemu")
  else
    log "WARNING: backports QEMU unavailable ($q.failed); using the host's $(qemu-system-x86_64 --version | head -n1)"
    QEMU_BIN=(qemu-system-x86_64)
  fi
}

# initramfs: busybox-static + the modules needed to mount the 9p root; rebuilt when its inputs change
setup_initrd() {
  INITRD=$RIG_CACHE/initrd-$KVER.img
  local stamp
  stamp="$KVER $INITRD_MODS $(sha256sum "$RIG_DIR/initramfs-init" /bin/busybox | cut -d' ' -f1 | tr '\n' ' ')"
  [[ -s $INITRD && $(cat "$INITRD.stamp" 2>/dev/null) == "$stamp" ]] && return 0
  log "building initramfs for $KVER"
  local d m p
  d=$(mktemp -d "$RIG_CACHE/initrd.XXXXXX")
  mkdir -p "$d/bin" "$d/mods"
  cp /bin/busybox "$d/bin/busybox"          # static: no shared libraries needed
  cp "$RIG_DIR/initramfs-init" "$d/init"; chmod 755 "$d/init"
  # dependency-ordered insmod list, resolved by the host's kmod against the unpacked tree
  for m in $INITRD_MODS; do
    modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
  done | awk '!seen[$0]++' | while read -r p; do
    case $p in   # busybox insmod wants plain ELF (newer kernels ship .ko.xz / .ko.zst)
      *.ko.xz)  xz -dc "$p" > "$d/mods/$(basename "$p" .xz)"; basename "$p" .xz ;;
      *.ko.zst) zstd -dcq "$p" > "$d/mods/$(basename "$p" .zst)"; basename "$p" .zst ;;
      *)        cp "$p" "$d/mods/"; basename "$p" ;;
    esac >> "$d/modules.order"
  done
  [[ -s $d/modules.order ]] || die "no initramfs modules resolved for $KVER"
  (cd "$d" && find . | cpio -o -H newc --quiet | gzip -1) > "$INITRD.tmp"
  mv "$INITRD.tmp" "$INITRD"; echo "$stamp" > "$INITRD.stamp"
  rm -rf "$d"
}
