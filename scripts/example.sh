#!/usr/bin/env bash
# Builds the release preset and runs the cantilever example into runs/cantilever_gravity.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
build/release/apps/cli/tendril run examples/cantilever_gravity.yaml --out runs/cantilever_gravity
echo
echo "Look at it:"
echo "  build/release/apps/cli/tendril view runs/cantilever_gravity    # in the browser: http://127.0.0.1:8765/"
echo "  build/release/apps/cli/tendril plot runs/cantilever_gravity    # PNG plots in runs/cantilever_gravity/plots/"
echo "  build/release/apps/cli/tendril render runs/cantilever_gravity --out runs/cantilever_gravity.mp4"
echo "  build/release/apps/cli/tendril export runs/cantilever_gravity --vtk runs/cantilever_gravity_vtk  # ParaView: run.pvd"
