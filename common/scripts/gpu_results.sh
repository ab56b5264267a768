#!/bin/sh
# The GPU results the repository keeps (grader/labs/labNN/results/,
# tests/data/gpu/), made on a machine with an NVIDIA GPU:
#   sh common/scripts/gpu_results.sh BUILD_DIR OUT_DIR [LAB...]
# BUILD_DIR is a build folder (cmake --preset default, or one made elsewhere
# with grader --build-only and carried over); OUT_DIR gets one file per run.
set -u
[ $# -ge 2 ] || { echo "usage: gpu_results.sh BUILD_DIR OUT_DIR [LAB...] (default: every stage)" >&2; exit 2; }
build=$1 out=$2
shift 2
labs=${*:-1 2 3 4 5}
mkdir -p "$out"
log="$out/gpu_results.log"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$log" 2>&1
echo "\$ cycle_probe tests/data/gpu/cycle_patterns.csv" >> "$log"
"$build/common/gpu_probe/cycle_probe" tests/data/gpu/cycle_patterns.csv > "$out/h200_cycle_probe.txt" 2>> "$log"
echo "cycle_probe exit status $?" >> "$log"
for lab in $labs; do
  echo "\$ grader --lab $lab --solutions --backend gpu --seed 1 --format json" >> "$log"
  "$build/grader/grader" --lab $lab --solutions --backend gpu --seed 1 --format json \
    > "$out/lab0${lab}_solution.json" 2>> "$log"
  echo "exit status $?" >> "$log"
  echo "\$ grader --lab $lab --backend gpu --seed 1" >> "$log"
  "$build/grader/grader" --lab $lab --backend gpu --seed 1 > "$out/lab0${lab}_skeleton.txt" 2>> "$log"
  echo "exit status $?" >> "$log"
done
