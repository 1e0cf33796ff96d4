#!/usr/bin/env bash
# Installs what is missing, builds, and opens the workbench on built-in simulator lanes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
"$root/scripts/build.sh"
exec "${LANEBENCH_BUILD_DIR:-$root/build}/app/gui/lanebench" --demo "$@"
