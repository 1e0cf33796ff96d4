#!/usr/bin/env bash
# Configures and builds LaneBench into ./build (Release with debug info, Ninja).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LANEBENCH_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" --parallel "$(nproc)"
