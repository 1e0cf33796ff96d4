#!/usr/bin/env bash
# Checks an installed lanebench package: each program runs from /usr/bin with no display, the
# desktop files are where desktops look for them, and a short run on simulator lanes works with
# nothing but the installed files (prompt sets and reference answers are compiled in).
# Usage: scripts/package_check.sh [PROGRAM...]   (default: lanebench-cli lanebench-sim lanebench)
set -euo pipefail
programs=("$@")
if ((${#programs[@]} == 0)); then programs=(lanebench-cli lanebench-sim lanebench); fi
version="$(dpkg-query -W -f='${Version}' lanebench)"

for p in "${programs[@]}"; do
  # No DISPLAY, WAYLAND_DISPLAY or platform override: what a server or a CI runner has.
  out="$(cd / && env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "/usr/bin/$p" --version)"
  echo "package: /usr/bin/$p --version: $out"
  if [[ "$out" != *"$version"* ]]; then
    echo "package: /usr/bin/$p --version does not name the package version $version" >&2
    exit 1
  fi
done

if [[ " ${programs[*]} " == *" lanebench "* ]]; then
  for f in /usr/share/applications/org.lanebench.LaneBench.desktop \
    /usr/share/icons/hicolor/scalable/apps/org.lanebench.LaneBench.svg \
    /usr/share/metainfo/org.lanebench.LaneBench.metainfo.xml; do
    [[ -s "$f" ]] || {
      echo "package: $f is missing" >&2
      exit 1
    }
  done
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/plan.json" <<'EOF'
{
  "name": "package check",
  "lanes": [
    {"id": "bf16", "base_url": "sim:bf16?time_scale=0.01"},
    {"id": "fp8", "base_url": "sim:fp8?time_scale=0.01"}
  ],
  "experiments": [
    {"kind": "regression", "prompts": "builtin:regression-20", "max_tokens": 32},
    {"kind": "throughput", "concurrency": [2], "requests": 4, "input_tokens": 128,
     "output_tokens": 8}
  ]
}
EOF
(cd "$work" && /usr/bin/lanebench-cli run plan.json --out run >run.log 2>&1) || {
  cat "$work/run.log" >&2
  echo "package: the installed lanebench-cli could not run a plan on simulator lanes" >&2
  exit 1
}
for f in summary.json requests.jsonl review.json; do
  [[ -s "$work/run/$f" ]] || {
    echo "package: the installed lanebench-cli run left no $f" >&2
    exit 1
  }
done
echo "package: /usr/bin/lanebench-cli ran a plan on simulator lanes"
