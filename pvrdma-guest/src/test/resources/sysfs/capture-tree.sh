#!/bin/bash
# capture-tree.sh TEMPLATE OUT [FROM=TO...]: copies from this machine's /sys the files that the
# recorded tree TEMPLATE holds (the attributes verbs4j reads) into OUT, each path's FROM parts
# renamed TO first (PCI addresses, interface names). A symbolic link becomes a file holding its
# target, as the README's conventions say; a path this machine lacks is left out.
#   capture-tree.sh synthesized-pvrdma-active captured-pvrdma-qemu 0000:0b:00.=0000:00:10. ens192=vmx0
set -euo pipefail
cd "$(dirname "$0")"
template=$1 out=$2; shift 2
rm -rf "$out"
(cd "$template" && find . -type f | sort) | while read -r rel; do
  p=${rel#./}
  for r in "$@"; do p=${p//${r%%=*}/${r#*=}}; done
  src=/sys/$p
  if [[ -L $src ]]; then
    mkdir -p "$out/$(dirname "$p")"; readlink "$src" > "$out/$p"
  elif [[ -f $src ]] && cat "$src" > /dev/null 2>&1; then
    mkdir -p "$out/$(dirname "$p")"; cat "$src" > "$out/$p"
  fi
done
echo "capture-tree: $(find "$out" -type f | wc -l) files in $out"
