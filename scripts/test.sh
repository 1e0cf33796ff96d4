#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test (GUI tests offscreen, no display needed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
"$root/scripts/build.sh"
cd "${LANEBENCH_BUILD_DIR:-$root/build}"
export QT_QPA_PLATFORM=offscreen
# Serially: many tests assert timings against a loopback server, and two of them sharing two
# cores would measure each other rather than the code under test.
ctest --output-on-failure --timeout 300
