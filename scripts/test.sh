#!/usr/bin/env bash
# Builds the release preset and runs every test (unit, validation, regression, and the Python tests
# python/tests and examples/python, which ctest runs with pytest: docs/python.md), then every fuzzer of
# fuzz/ for 90 s in all (scripts/fuzz.sh: the fuzz preset, clang + libFuzzer).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
ctest --preset release
scripts/fuzz.sh 90
