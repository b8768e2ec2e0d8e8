#!/usr/bin/env bash
# Builds the release preset and runs every test (unit, validation, regression, and the Python tests
# python/tests and examples/python, which ctest runs with pytest: docs/python.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
ctest --preset release
