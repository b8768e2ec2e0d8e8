#!/usr/bin/env bash
# Builds the fuzz preset and runs every fuzzer it built (build/fuzz/fuzz/*_fuzzer) for a bounded time
# from its committed seed corpus (fuzz/corpus/<name>/, read only) and dictionary (fuzz/<name>.dict,
# if any), with a fixed seed (-seed=1) so that a run repeats its inputs as far as the time allows:
# the CI hook of fuzz/README.md. Usage: scripts/fuzz.sh [SECONDS_IN_ALL] (default 90, split
# evenly between the fuzzers). Exit code 1 if any fuzzer found a crash, sanitizer report, leak,
# timeout or out-of-memory input (written to build/fuzz/findings/); the fuzzers' logs are there too.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
total="${1:-90}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
mapfile -t fuzzers < <(find "$root/build/fuzz/fuzz" -maxdepth 1 -type f -executable -name '*_fuzzer' | sort)
if [ ${#fuzzers[@]} -eq 0 ]; then
  echo "fuzz: no fuzzer built in build/fuzz/fuzz" >&2
  exit 1
fi
each=$(( total / ${#fuzzers[@]} ))
findings="$root/build/fuzz/findings"  # libFuzzer writes crash-*, timeout-*, ... into the current folder
mkdir -p "$findings"
failed=0
for fuzzer in "${fuzzers[@]}"; do
  name="$(basename "$fuzzer" _fuzzer)"
  work="$root/build/fuzz/corpus/$name"  # new inputs go here; the committed corpus is only read
  mkdir -p "$work"
  args=("$work")
  if [ -d "$root/fuzz/corpus/$name" ]; then args+=("$root/fuzz/corpus/$name"); fi
  if [ -f "$root/fuzz/$name.dict" ]; then args+=("-dict=$root/fuzz/$name.dict"); fi
  log="$findings/$name.log"
  if (cd "$findings" && "$fuzzer" "${args[@]}" -max_total_time="$each" -timeout=10 -rss_limit_mb=2048 \
        -max_len=4096 -seed=1 -print_final_stats=1 >"$log" 2>&1); then
    runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)"
    peak="$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)"
    echo "fuzz: $name: ${runs:-?} inputs in ${each} s, peak RSS ${peak:-?} MB, no finding"
  else
    echo "fuzz: $name: FINDING (see $log and the crash-*, timeout-*, leak-*, oom-* files beside it)" >&2
    tail -n 30 "$log" >&2
    failed=1
  fi
done
exit $failed
