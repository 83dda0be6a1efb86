#!/bin/bash
# Regenerate the jextract bindings in src/main/java/dev/verbs4j/bindings from jextract-args.txt.
#
#   ./regenerate.sh           replace the committed generated package with fresh jextract output
#   ./regenerate.sh --check   generate into a temporary directory and diff against the committed
#                             package; exit 1 if they differ (nothing in the tree is touched)
#
# The output depends on the installed headers (Debian 12, rdma-core 44.0) and on the libclang
# that jextract was built with (13.x); see README.md.
set -euo pipefail

MODULE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
ARGS_FILE="$MODULE_DIR/jextract-args.txt"
HEADER=/usr/include/rdma/rdma_cma.h
SOURCE_ROOT="$MODULE_DIR/src/main/java"
PACKAGE_PATH=dev/verbs4j/bindings

usage() { echo "usage: $0 [--check]" >&2; exit 2; }

mode=write
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) usage ;;
esac
[ $# -le 1 ] || usage

if ! command -v jextract >/dev/null 2>&1; then
  cat >&2 <<'MSG'
error: jextract is not on PATH.
jextract is not packaged for Debian and has no usable download here: build it from the
openjdk/jextract sources against libclang 13 (Debian: libclang1-13, libclang-common-13-dev) and put
its bin directory on PATH. Newer libclang versions produce uncompilable code (see README.md).
MSG
  exit 1
fi
if [ ! -r "$HEADER" ]; then
  echo "error: $HEADER not found; install librdmacm-dev and libibverbs-dev" >&2
  exit 1
fi

# jextract resolves the relative --output and @file paths against the working directory.
cd "$MODULE_DIR"

if [ "$mode" = check ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  jextract @"$ARGS_FILE" --output "$scratch" "$HEADER"
  if diff -r "$SOURCE_ROOT/$PACKAGE_PATH" "$scratch/$PACKAGE_PATH"; then
    echo "generated bindings are up to date"
  else
    echo "error: the committed bindings differ from jextract's output (run $0 to regenerate)" >&2
    exit 1
  fi
else
  rm -rf "${SOURCE_ROOT:?}/$PACKAGE_PATH"
  jextract @"$ARGS_FILE" --output "$SOURCE_ROOT" "$HEADER"
  echo "regenerated $SOURCE_ROOT/$PACKAGE_PATH ($(find "$SOURCE_ROOT/$PACKAGE_PATH" -name '*.java' | wc -l) files)"
fi
