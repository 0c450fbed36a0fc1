#!/usr/bin/env bash
# Installs the Debian packages Switchyard needs, only those that are missing.
# Called by tb/quickstart.sh and tb/test.sh; safe to run again.
#   bash tb/deps.sh       # everything: the program, the tests, the co-simulation, the plots
#   bash tb/deps.sh run   # only what building and running the program needs (the quick start)
set -euo pipefail
pkgs=(g++ cmake make pkg-config libsystemc-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev)
# (Open MPI for the network-ranks tests, mpirun -np N; its launcher wants an ssh client even
# on one machine.)
[ "${1:-}" = run ] || pkgs+=(libgtest-dev verilator python3 python3-matplotlib parallel
  libopenmpi-dev openmpi-bin openssh-client)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "switchyard: installing missing Debian packages: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
