#!/usr/bin/env bash
# Instructions per step of the legged robot (examples/legged_robot.yaml: floor contact and friction),
# counted by callgrind: repeatable on a shared machine where wall-clock benchmarks are noisy
# (docs/performance.md, "Contact"). It runs `tendril run` for FIRST and for FIRST + STEPS steps and
# divides the difference by STEPS (steps after FIRST, once the robot stands on the floor), then by
# the Newton iterations of those steps (read from the run directory with numpy). Every run writes a
# fresh folder.
# Usage: bench/contact/instruction_counts.sh [path/to/tendril] [steps]
set -euo pipefail
cd "$(dirname "$0")/../.."
tendril="${1:-build/release/apps/cli/tendril}"
steps="${2:-40}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

source bench/support/callgrind.sh
instructions() {  # label, scene, dt, number of steps -> total instructions of the whole run
  local duration
  duration=$(awk -v n="$4" -v dt="$3" 'BEGIN { printf "%.10g", n * dt }')
  callgrind_instructions "$tendril" run "examples/$2.yaml" --out "$out/$1-$4" \
    --set "integrator.dt=$3" --set "duration=$duration" --set "output.interval=$duration"
}

printf "%-14s %20s %18s %28s\n" scene "instructions/step" "Newton it./step" "instructions/iteration"
count() {  # label, scene, dt, steps before the counted ones
  local base total iterations
  base=$(instructions "$1" "$2" "$3" "$4")
  total=$(instructions "$1" "$2" "$3" $(($4 + steps)))
  iterations=$(/usr/bin/python3 -c "import numpy; print(numpy.load('$out/$1-$(($4 + steps))/step_iterations.npy')[$4:].sum())")
  awk -v n="$1" -v s="$steps" -v a="$base" -v b="$total" -v it="$iterations" \
    'BEGIN { printf "%-14s %20.0f %18.2f %28.0f\n", n, (b - a) / s, it / s, (b - a) / it }'
}
count legged_robot legged_robot 2.5e-3 200  # standing on the floor after 0.5 s
