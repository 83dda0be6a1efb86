# Shared by ci/test and ci/demo: JDK 25 selection and the host packages the build needs.
# (Sourced, not run.)

# Maven and the launcher need a JDK 25; the machine's default java may be older.
select_jdk25() {
  local v
  v=$("${JAVA_HOME:-/nonexistent}/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/{print $2}' || true)
  if [[ ${v%%.*} =~ ^[0-9]+$ ]] && (( ${v%%.*} >= 25 )); then return 0; fi
  local jdk
  for jdk in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/*25*; do
    if [[ -x $jdk/bin/javac ]]; then export JAVA_HOME=$jdk; return 0; fi
  done
  echo "verbs4j: no JDK 25 found; install one and set JAVA_HOME" >&2
  return 1
}

# Build and host-test prerequisites: rdma-core's libraries and headers (the layout test compiles
# a C program against them) and gcc. Installs only what is missing.
install_build_packages() {
  local pkgs="gcc libc6-dev rdma-core ibverbs-providers libibverbs-dev librdmacm-dev ibverbs-utils iproute2"
  local missing=() p
  for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  ((${#missing[@]})) || return 0
  echo "verbs4j: installing ${missing[*]}" >&2
  local i
  for i in 1 2 3 4 5; do   # apt may be locked by another apt process for a while
    if { apt-cache show libibverbs-dev >/dev/null 2>&1 || apt-get update -qq; } &&
       DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; then
      return 0
    fi
    sleep $((i * 5))
  done
  echo "verbs4j: could not install ${missing[*]}" >&2
  return 1
}
