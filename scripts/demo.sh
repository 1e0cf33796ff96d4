#!/usr/bin/env bash
# Installs what is missing, builds, and opens the workbench on built-in simulator lanes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
# The three programs only (the demo's sweep plan launches lanebench-sim): the tests and
# benchmarks are scripts/test.sh's to build, and would double a first build's time.
LANEBENCH_BUILD_TARGETS="lanebench lanebench-cli lanebench-sim" "$root/scripts/build.sh"
exec "${LANEBENCH_BUILD_DIR:-$root/build}/app/gui/lanebench" --demo "$@"
