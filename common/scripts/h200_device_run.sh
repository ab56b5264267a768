#!/bin/sh
# On the H200, from the device copy's root, DIR made by h200_prep.sh and carried:
#   sh DIR/tree/common/scripts/h200_device_run.sh DIR
# The tree (solutions, skeletons, hostile files), the correct alternatives,
# then the student kit (its build folder is the tree's, copied: the kit's
# grader/ and common/ sources are the tree's), each file graded alone on the
# GPU by h200_sandboxed.sh; $OUT gets env.txt, the summaries and the logs.
set -u
dir=${1:?usage: h200_device_run.sh DIR}
cp -a "$dir" /tmp/h200run && chmod -R a+rX /tmp/h200run
mkdir -p /tmp/h200run/kit/build && cp -a /tmp/h200run/tree/build/. /tmp/h200run/kit/build/
{ date -u; uname -r; nvidia-smi -L; nproc; g++ --version | head -1; nvcc --version | tail -2; } > "$OUT/env.txt" 2>&1
cd /tmp/h200run/tree
for mode in tree right kit; do
  root=/tmp/h200run/tree; [ $mode = kit ] && root=/tmp/h200run/kit
  timeout "${BANKLAB_PART_SECONDS:-170}" sh common/scripts/h200_sandboxed.sh $mode $root /tmp/h200run/out_$mode > /dev/null 2>&1
  echo "$mode rc=$?" >> /tmp/h200run/out_$mode/summary.txt
  cp /tmp/h200run/out_$mode/summary.txt "$OUT/${mode}_summary.txt"
  cat "$OUT/${mode}_summary.txt"
done
tar czf "$OUT/logs.tar.gz" -C /tmp/h200run out_tree out_right out_kit
ls -la "$OUT"
