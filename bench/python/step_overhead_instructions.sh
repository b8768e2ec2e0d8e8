#!/usr/bin/env bash
# Instructions of the Python step() overhead, independent of machine load: the same process (import,
# the 26-node cantilever, 1000 steps) once as a Python loop of sim.step() and once as sim.run() (the
# facade's C++ loop), counted by callgrind; the difference over 1000 is the overhead per call.
#   bench/python/step_overhead_instructions.sh          (after a release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/support/callgrind.sh
export PYTHONPATH=python:build/release/python
setup='import tendril; s = tendril.Simulation.from_file("examples/cantilever_gravity.yaml", ["rods.0.geometry.num_nodes=26", "duration=1"])'
loop=$(callgrind_instructions /usr/bin/python3 -c "$setup
for _ in range(1000): s.step()")
run=$(callgrind_instructions /usr/bin/python3 -c "$setup
s.run()")
echo "Python loop: ${loop//,/} instructions, run(): ${run//,/} instructions"
echo "overhead per step() call: $(( (${loop//,/} - ${run//,/}) / 1000 )) instructions"
