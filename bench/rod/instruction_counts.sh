#!/usr/bin/env bash
# Instructions per implicit step of the benchmark cantilever, counted by callgrind: repeatable on a
# shared machine where wall-clock benchmarks are noisy (docs/performance.md). For each size it runs
# `tendril run` for 1 and for 1 + STEPS steps and divides the difference by STEPS, then by the
# nodes and the Newton iterations of those steps (read from the run directory with numpy). Every run
# writes a fresh folder, so that no run counts the removal of an earlier one.
# Usage: bench/rod/instruction_counts.sh [path/to/tendril] [steps]
set -euo pipefail
cd "$(dirname "$0")/../.."
tendril="${1:-build/release/apps/cli/tendril}"
steps="${2:-20}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

source bench/support/callgrind.sh
instructions() {  # nodes, number of steps -> total instructions of the whole run
  local duration
  duration=$(echo "$2 * 0.001" | bc -l)
  callgrind_instructions "$tendril" run examples/cantilever_gravity.yaml --out "$out/run-$1-$2" \
    --set "rods.0.geometry.num_nodes=$1" --set "duration=$duration" --set "output.interval=$duration"
}

printf "%8s %20s %18s %26s\n" nodes "instructions/step" "Newton it./step" "instructions/node/iteration"
for nodes in 26 101 401 1601; do
  base=$(instructions "$nodes" 1)
  total=$(instructions "$nodes" $((steps + 1)))
  iterations=$(/usr/bin/python3 -c "import numpy; print(numpy.load('$out/run-$nodes-$((steps + 1))/step_iterations.npy')[1:].sum())")
  awk -v n="$nodes" -v s="$steps" -v a="$base" -v b="$total" -v it="$iterations" \
    'BEGIN { per = (b - a) / s; printf "%8d %20.0f %18.2f %26.0f\n", n, per, it / s, (b - a) / (n * it) }'
done
