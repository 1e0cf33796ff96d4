#!/usr/bin/env bash
# Builds lanebench if needed, runs its scripted screenshot tour on the demo workspace under a
# virtual X server, and writes the pages into docs/screenshots/. Runs in a throw-away data and
# config folder so a user's own workspaces are never touched.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LANEBENCH_BUILD_DIR:-$root/build}"
out="${1:-$root/docs/screenshots}"
if [[ ! -x "$build/app/gui/lanebench" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build" --target lanebench --parallel "$(nproc)"
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
# A fixed font and size so screenshots are comparable from one machine to the next.
XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config" XDG_RUNTIME_DIR="$scratch" \
  QT_QPA_PLATFORMTHEME="" \
  xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$build/app/gui/lanebench" --demo --screenshot-tour "$out"
echo "screenshots written to $out"
ls -1 "$out"/*.png
