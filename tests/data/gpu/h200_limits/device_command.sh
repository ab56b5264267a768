#!/bin/sh
# On the H200 (run from the device copy's root, build-h200limits carried):
#   sh build-h200limits/tree/tests/data/gpu/h200_limits/device_command.sh
# Nsight Compute's two counter levels, the tree (solutions and skeletons), the correct alternatives,
# then the student kit (its own build
# folder is the tree's, copied: the kit's grader/, common/ sources are main's).
set -u
cp -a build-h200limits /tmp/bl && chmod -R a+rX /tmp/bl
mkdir -p /tmp/bl/kit/build && cp -a /tmp/bl/tree/build/. /tmp/bl/kit/build/
{ date -u; uname -r; nvidia-smi -L; nproc; g++ --version | head -1; nvcc --version | tail -2; } > "$OUT/env.txt" 2>&1
cd /tmp/bl/tree
# Nsight Compute's kernel-level and instruction-level shared counters, 5 runs.
timeout 120 sh tests/data/gpu/probes/ncu_levels.sh /tmp/bl/ncu_levels 5 > "$OUT/ncu_levels_stdout.txt" 2>&1
cp /tmp/bl/ncu_levels/ncu_levels.csv "$OUT/" 2>/dev/null
for mode in tree right kit; do
  root=/tmp/bl/tree; [ $mode = kit ] && root=/tmp/bl/kit
  timeout 200 sh common/scripts/h200_sandboxed.sh $mode $root /tmp/bl/out_$mode > /dev/null 2>&1
  echo "$mode rc=$?" >> /tmp/bl/out_$mode/summary.txt
  cp /tmp/bl/out_$mode/summary.txt "$OUT/${mode}_summary.txt"
  cat "$OUT/${mode}_summary.txt"
done
tar czf "$OUT/logs.tar.gz" -C /tmp/bl out_tree out_right out_kit
ls -la "$OUT"
