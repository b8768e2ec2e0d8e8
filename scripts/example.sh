#!/usr/bin/env bash
# Builds only what the example needs (the `tendril` command and the browser viewer it serves) and
# runs the cantilever example into runs/cantilever_gravity.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
targets=(tendril)
if cmake --build --preset release --target help | grep -q '^tendril_viewer:'; then targets+=(tendril_viewer); fi
cmake --build --preset release --target "${targets[@]}"
build/release/apps/cli/tendril run examples/cantilever_gravity.yaml --out runs/cantilever_gravity
echo
echo "Results: runs/cantilever_gravity/ (run.json and one .npy array per quantity; docs/output_format.md)."
echo "Look at it:"
echo "  build/release/apps/cli/tendril view runs/cantilever_gravity    # in the browser: http://127.0.0.1:8765/"
echo "  build/release/apps/cli/tendril plot runs/cantilever_gravity    # PNG plots in runs/cantilever_gravity/plots/"
echo "  build/release/apps/cli/tendril render runs/cantilever_gravity --out runs/cantilever_gravity.mp4"
echo "  build/release/apps/cli/tendril export runs/cantilever_gravity --vtk runs/cantilever_gravity_vtk  # ParaView: run.pvd"
