#!/bin/sh
# Resident memory of `lanebench-cli run` over a long throughput phase: two in-process simulator
# lanes side by side, STREAMS streams each, for SECONDS; VmRSS sampled every STEP seconds, and the
# slope (MB a minute, least squares) after the first WARMUP seconds (docs/benchmarks.md, "A long
# phase in bounded memory").
#   bench/soak/cli-memory.sh [CLI] [STREAMS] [SECONDS] [STEP] [WARMUP]
set -eu
cli=${1:-build/app/cli/lanebench-cli}
streams=${2:-1000}
seconds=${3:-600}
step=${4:-10}
warmup=${5:-60}
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
lane() {
  printf '{"id": "%s", "base_url": "sim:%s?time_scale=0.02&max_num_seqs=%s", "model": "auto"}' \
    "$1" "$1" "$streams"
}
cat > "$work/plan.json" <<PLAN
{"name": "cli-memory", "lanes": [$(lane bf16), $(lane fp8)],
 "experiments": [{"kind": "throughput", "name": "soak", "concurrency": [$streams],
   "requests": 10000000, "duration_s": $seconds, "input_tokens": 256, "output_tokens": 64,
   "ignore_eos": true, "warmups": 0, "lane_order": "parallel"}]}
PLAN
"$cli" run "$work/plan.json" --out "$work/run" > "$work/log" 2>&1 &
pid=$!
start=$(date +%s)
echo "elapsed_s rss_mb"
while kill -0 "$pid" 2>/dev/null; do
  sleep "$step"
  rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss_kb" ] || break
  echo "$(( $(date +%s) - start )) $(awk -v k="$rss_kb" 'BEGIN {printf "%.1f", k / 1000}')"
done | tee "$work/rss"
status=0
wait "$pid" || status=$?
pid=
[ "$status" -eq 0 ] || { echo "the run failed:"; tail -5 "$work/log"; exit 1; }
requests=$(wc -l < "$work/run/requests.jsonl")
awk -v warmup="$warmup" -v requests="$requests" '
  $1 ~ /^[0-9]+$/ && $1 >= warmup { n++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2;
    if (n == 1) first = $2; last = $2; if ($2 > max) max = $2 }
  END { if (n < 2) { print "too few samples after the warm-up"; exit 1 }
        slope = (n * sxy - sx * sy) / (n * sxx - sx * sx) * 60
        printf "requests %d; after %d s: first %.1f MB, last %.1f MB, max %.1f MB, slope %.2f MB/min (%d samples)\n",
               requests, warmup, first, last, max, slope, n }' "$work/rss"
