#!/usr/bin/env bash
# Installs the Debian packages LaneBench needs to build, test and run; does nothing when all are
# present. Needs root (or sudo) only when something is missing. With --tests, also what only the
# tests use: Slurm and munge for the single-node cluster of the fleet test, and node and npm for
# the Kubernetes manifest check (unless some node and npm are on PATH already).
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config ccache
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev qt6-qpa-plugins
  libcurl4-openssl-dev nlohmann-json3-dev libsimdjson-dev libssl-dev libboost-dev libcli11-dev
  libbenchmark-dev libnghttp2-dev libre2-dev
  libpng-dev libturbojpeg0-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  clang-14 libclang-rt-14-dev
  clang-format
  libsecret-1-dev dbus gnome-keyring
  xvfb xauth imagemagick python3 fonts-dejavu-core
  dpkg-dev file desktop-file-utils appstream
)
if [[ ${1:-} == --tests ]]; then
  packages+=(slurmctld slurmd slurm-client munge)
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "bootstrap: installing ${missing[*]}" >&2
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
