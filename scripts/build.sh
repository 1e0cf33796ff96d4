#!/usr/bin/env bash
# Configures and builds LaneBench into ./build (Release with debug info, Ninja). Arguments go to
# CMake's configure step. LANEBENCH_BUILD_TARGETS: the targets to build, space-separated (default:
# every target).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LANEBENCH_BUILD_DIR:-$root/build}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
targets=()
read -r -a targets <<<"${LANEBENCH_BUILD_TARGETS:-}"
cmake --build "$build" --parallel "$(nproc)" ${targets[@]+--target "${targets[@]}"}
