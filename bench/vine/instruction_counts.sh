#!/usr/bin/env bash
# Instructions per step of the vine paper's runtime scene (examples/vine_runtime.yaml, 30 bodies),
# counted by callgrind: repeatable on a shared machine where wall-clock benchmarks are noisy
# (docs/performance.md). Runs `tendril run` for 1 and for 1 + STEPS steps, saving one frame only,
# and divides the difference by STEPS. Every run writes a fresh folder, so that no run counts the
# removal of an earlier one.
# Usage: bench/vine/instruction_counts.sh [path/to/tendril] [steps]
set -euo pipefail
cd "$(dirname "$0")/../.."
tendril="${1:-build/release/apps/cli/tendril}"
steps="${2:-200}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

source bench/support/callgrind.sh
instructions() {  # number of steps -> total instructions of the whole run
  callgrind_instructions "$tendril" run examples/vine_runtime.yaml --out "$out/run-$1" --set "vine.steps=$1" \
    --set "vine.save_every=$1"
}

base=$(instructions 1)
total=$(instructions $((steps + 1)))
awk -v s="$steps" -v a="$base" -v b="$total" 'BEGIN { printf "vine_runtime (30 bodies): %.0f instructions per step over %d steps\n", (b - a) / s, s }'
