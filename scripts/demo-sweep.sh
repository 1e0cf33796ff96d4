#!/usr/bin/env bash
# Runs the MTP batch-token sweep demo (demo/sweep-mtp-batch-tokens.json): lanebench-cli starts
# lanebench-sim once per point as a managed server and writes the tuning curve to summary.json.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LANEBENCH_BUILD_DIR:-$root/build}"
out="${1:-$root/runs/sweep-$(date +%Y%m%d-%H%M%S)}"
PATH="$build/app/sim:$PATH" exec "$build/app/cli/lanebench-cli" run \
  "$root/demo/sweep-mtp-batch-tokens.json" --out "$out" --allow-launch
