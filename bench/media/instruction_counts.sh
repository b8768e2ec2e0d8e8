#!/usr/bin/env bash
# Instructions per simulated second of the flagellated robot (examples/flagellated_robot.yaml, 100 rpm,
# dt 0.01 s) for n tails, counted by callgrind: repeatable on a shared machine where wall-clock
# benchmarks are noisy (docs/performance.md). For each n it runs `tendril run` for 1 s and for 2 s and
# takes the difference (the second second, steady swimming as in bench_flagellated_robot), with the
# Newton iterations of those steps read from the run directory with numpy. Every run writes a fresh
# folder, so that no run counts the removal of an earlier one.
# Usage: bench/media/instruction_counts.sh [path/to/tendril] [tails ...]   (default tails: 2 3 4 6)
set -euo pipefail
cd "$(dirname "$0")/../.."
tendril="${1:-build/release/apps/cli/tendril}"
shift || true
tails=("$@")
[ ${#tails[@]} -gt 0 ] || tails=(2 3 4 6)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

source bench/support/callgrind.sh
instructions() {  # tails, duration [s] -> total instructions of the whole run
  callgrind_instructions "$tendril" run examples/flagellated_robot.yaml --out "$out/run-$1-$2" \
    --set "flagellated_robot.tails=$1" --set flagellated_robot.motor_rpm=100 --set "duration=$2" \
    --set "output.interval=$2"
}

printf "%6s %24s %18s\n" tails "instructions/sim. second" "Newton it./step"
for n in "${tails[@]}"; do
  base=$(instructions "$n" 1)
  total=$(instructions "$n" 2)
  iterations=$(/usr/bin/python3 -c "import numpy; print(numpy.load('$out/run-$n-2/step_iterations.npy')[100:].mean())")
  awk -v n="$n" -v a="$base" -v b="$total" -v it="$iterations" 'BEGIN { printf "%6d %24.0f %18.2f\n", n, b - a, it }'
done
