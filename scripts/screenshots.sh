#!/usr/bin/env bash
# Builds lanebench if needed, runs its scripted screenshot tour on the demo workspace under a
# virtual X server, and writes the pages into docs/screenshots/. Runs in a throw-away data and
# config folder so a user's own workspaces are never touched.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${LANEBENCH_BUILD_DIR:-$root/build}"
out="${1:-$root/docs/screenshots}"
if [[ ! -x "$build/app/gui/lanebench" || ! -x "$build/app/cli/lanebench-cli" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build" --target lanebench lanebench-cli --parallel "$(nproc)"
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
# A fixed font and size so screenshots are comparable from one machine to the next.
XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config" XDG_RUNTIME_DIR="$scratch" \
  QT_QPA_PLATFORMTHEME="" \
  xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$build/app/gui/lanebench" --demo --screenshot-tour "$out"
# The traffic kinds (trace replay, sessions, capacity, a throughput sweep's Pareto chart), in a
# fresh demo workspace of their own.
rm -rf "$scratch/data" "$scratch/config"
XDG_DATA_HOME="$scratch/data" XDG_CONFIG_HOME="$scratch/config" XDG_RUNTIME_DIR="$scratch" \
  QT_QPA_PLATFORMTHEME="" \
  xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$build/app/gui/lanebench" --demo --screenshot-traffic "$out"

# The PDF report of a short throughput and regression run on two simulator lanes, with a
# checkpoint verification attached: its first three pages side by side. Rendering a PDF needs pdftoppm (Debian: poppler-utils).
if command -v pdftoppm >/dev/null && command -v convert >/dev/null; then
  cat >"$scratch/report-plan.json" <<'PLAN'
{"name": "bf16 vs fp8-mtp3", "lanes": [
  {"id": "bf16", "base_url": "sim:bf16?time_scale=0.02"},
  {"id": "fp8-mtp3", "base_url": "sim:fp8-mtp3?time_scale=0.02"}],
 "experiments": [
  {"kind": "throughput", "concurrency": [1, 4, 16], "requests": 16, "input_tokens": 512,
   "output_tokens": 64},
  {"kind": "regression", "max_tokens": 64}]}
PLAN
  "$build/app/cli/lanebench-cli" run "$scratch/report-plan.json" --out "$scratch/report-run" \
    >/dev/null 2>&1
  # A small checkpoint verified against its pinned hashes and attached to the candidate lane.
  mkdir -p "$scratch/checkpoint"
  printf '{"architectures": ["Qwen3ForCausalLM"]}\n' >"$scratch/checkpoint/config.json"
  head -c 65536 /dev/zero >"$scratch/checkpoint/tokenizer.model"
  (cd "$scratch/checkpoint" && sha256sum config.json tokenizer.model >"$scratch/checkpoint.sums")
  "$build/app/cli/lanebench-cli" verify "$scratch/checkpoint" --inventory "$scratch/checkpoint.sums" \
    --attach "$scratch/report-run:fp8-mtp3" >/dev/null 2>&1
  XDG_RUNTIME_DIR="$scratch" "$build/app/cli/lanebench-cli" report "$scratch/report-run" \
    --format pdf >/dev/null
  pdftoppm -r 80 -png -f 1 -l 3 "$scratch/report-run/report/report.pdf" "$scratch/report-page"
  convert "$scratch"/report-page-*.png -bordercolor '#888888' -border 1 +append \
    "$out/10-report.png"
else
  echo "pdftoppm or convert missing (Debian: poppler-utils, imagemagick): report pages skipped"
fi
# The Decision page of a regression judged against its baseline's determinism floor, of a
# throughput run's energy and cost, and the Runs page of a run merged from shards (the tests' own
# runs, saved when LANEBENCH_SHOT_DIR is set); only where the tests are built.
if [[ -x "$build/tests/ui/tests_ui" ]]; then
  XDG_RUNTIME_DIR="$scratch" LANEBENCH_SHOT_DIR="$out" QT_QPA_PLATFORMTHEME="" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/tests/ui/tests_ui" UiFloorDecisionTest >/dev/null
  XDG_RUNTIME_DIR="$scratch" LANEBENCH_SHOT_DIR="$out" QT_QPA_PLATFORMTHEME="" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/tests/ui/tests_ui" UiStoredRunTest \
    merged_run_shows_where_its_shards_ran >/dev/null
fi
echo "screenshots written to $out"
ls -1 "$out"/*.png
