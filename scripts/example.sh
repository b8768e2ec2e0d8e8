#!/usr/bin/env bash
# Builds the release preset and runs the cantilever example into runs/cantilever_gravity.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
build/release/apps/cli/tendril run examples/cantilever_gravity.yaml --out runs/cantilever_gravity
