# shellcheck shell=bash
# Host side set-up of the pvrdma topology (sourced by setup.sh): the vmw_pvrdma driver, built out of
# tree.  No Debian kernel enables CONFIG_INFINIBAND_VMWARE_PVRDMA, so the module is built from
# Debian's linux-source against the headers of the rig's own kernel (vermagic must match; the kernel
# does not force signatures, so the unsigned module loads and taints).  The .debs and the built
# module stay in $RIG_CACHE/pvrdma-$KVER; nothing is installed.  The L2 guest boots the rig's own
# vmlinux and initramfs (both in the cache, which L1 sees through the host root).

# PVRDMA_KO: the built module for $KVER (sets it; builds it on first use)
setup_pvrdma() {
  local w=$RIG_CACHE/pvrdma-$KVER
  PVRDMA_KO=$w/vmw_pvrdma.ko
  [[ -s $PVRDMA_KO && -f $w/.built ]] && return 0
  [[ -z ${RIG_KSUITE:-} ]] || die "the pvrdma topology boots bookworm's 6.1 kernel (RIG_KSUITE=$RIG_KSUITE)"
  log "building vmw_pvrdma.ko for $KVER (out of tree, from Debian's linux-source; once)"
  local abi=${KVER%-amd64} series hdr_pkgs src p hdr t0=$SECONDS
  series=$(cut -d. -f1,2 <<<"$KVER")
  src=linux-source-$series
  # linux-headers-ABI-amd64 includes linux-headers-ABI-common's Makefile and needs linux-kbuild-X.Y
  hdr_pkgs="linux-headers-$KVER linux-headers-$abi-common linux-kbuild-$series"
  mkdir -p "$w/debs"
  for p in $hdr_pkgs $src; do
    compgen -G "$w/debs/${p}_*.deb" >/dev/null && continue
    (cd "$w/debs" && apt_retry apt-get download -o APT::Sandbox::User=root "$p") ||
      die "apt-get download $p failed (the pvrdma topology needs it to build vmw_pvrdma)"
  done
  rm -rf "$w/root" "$w/vmw_pvrdma"; mkdir -p "$w/root"
  for p in "$w/debs/"*.deb; do dpkg -x "$p" "$w/root"; done
  hdr=$w/root/usr/src/linux-headers-$KVER
  [[ -d $hdr ]] || die "no $hdr in the headers package"
  # the flavour's Makefile includes the -common one by absolute path: point it at the unpacked copy
  sed -i "s#include /usr/src/#include $w/root/usr/src/#" "$hdr/Makefile"
  # the kbuild tools are symlinked by absolute path too (scripts/, tools/)
  for p in "$hdr"/scripts "$hdr"/tools "$w/root/usr/src/linux-headers-$abi-common"/scripts "$w/root/usr/src/linux-headers-$abi-common"/tools; do
    [[ -L $p && $(readlink "$p") == /* ]] && ln -sfn "$w/root$(readlink "$p")" "$p"
  done
  tar -xJf "$w/root/usr/src/$src.tar.xz" -C "$w" --strip-components=4 "$src/drivers/infiniband/hw/vmw_pvrdma" ||
    die "no drivers/infiniband/hw/vmw_pvrdma in $src"
  make -s -C "$hdr" M="$w/vmw_pvrdma" CONFIG_INFINIBAND_VMWARE_PVRDMA=m modules >&2 || die "vmw_pvrdma build failed"
  [[ $(modinfo -F vermagic "$w/vmw_pvrdma/vmw_pvrdma.ko") == "$KVER "* ]] ||
    die "vmw_pvrdma.ko vermagic '$(modinfo -F vermagic "$w/vmw_pvrdma/vmw_pvrdma.ko")' is not $KVER"
  cp "$w/vmw_pvrdma/vmw_pvrdma.ko" "$PVRDMA_KO"
  rm -rf "$w/root"   # the unpacked headers and source (~1 GB); the .debs stay for a rebuild
  touch "$w/.built"
  log "vmw_pvrdma.ko built in $((SECONDS - t0))s ($PVRDMA_KO)"
}
