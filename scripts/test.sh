#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (GUI tests offscreen, no display needed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
"$root/scripts/build.sh"
cd "${LANEBENCH_BUILD_DIR:-$root/build}"
export QT_QPA_PLATFORM=offscreen
ctest --output-on-failure --timeout 300 -j "$(nproc)"
