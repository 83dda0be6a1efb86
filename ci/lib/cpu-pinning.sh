# shellcheck shell=bash
# Sourced by the scripts that time a server and a client against each other (compare.sh,
# modes.sh, rc-pingpong-usec.sh): the same pinning for rdma-core's tools and for verbs4j's.
#   pin_pairs CALLER   sets pin_server=(taskset -c 0) and pin_client=(taskset -c 1), the prefixes
#                      of the two commands; on one CPU or without taskset leaves both empty, says
#                      so on stderr and returns 1.
pin_pairs() {
  pin_server=() pin_client=()
  if (($(nproc) >= 2)) && command -v taskset > /dev/null; then
    pin_server=(taskset -c 0) pin_client=(taskset -c 1)
  else
    echo "$1: not pinning (needs 2 CPUs and taskset)" >&2
    return 1
  fi
}
