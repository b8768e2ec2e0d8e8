#!/usr/bin/env bash
# Builds the release preset and runs every test (unit, validation, regression).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
ctest --preset release
