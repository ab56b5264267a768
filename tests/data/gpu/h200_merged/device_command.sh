#!/bin/sh
# On the H200 (run from the device copy's root, build-gpubatch carried):
#   sh build-gpubatch/tree/tests/data/gpu/h200_merged/device_command.sh
# Step 1: h200_sandboxed.sh tree (solutions and skeletons of stages 1-5, the hostile files),
# packed into $OUT at once; step 2: gpu_class_batch.sh /tmp/gpu40 16 under timeout, then
# check_gpu_lock_log.sh on its holds log, and the batch's files packed into $OUT.
set -u
cp -a build-gpubatch /tmp/bl && chmod -R a+rX /tmp/bl
cd /tmp/bl/tree
{ date -u; uname -r; nvidia-smi -L; nproc; g++ --version | head -1; nvcc --version | tail -2; } > "$OUT/env.txt" 2>&1
timeout 250 sh common/scripts/h200_sandboxed.sh tree /tmp/bl/tree /tmp/bl/out_tree > /dev/null 2>&1
echo "step 1 rc=$?" >> /tmp/bl/out_tree/summary.txt
cp /tmp/bl/out_tree/summary.txt "$OUT/tree_summary.txt"
tar czf "$OUT/tree_logs.tar.gz" -C /tmp/bl out_tree
cat "$OUT/tree_summary.txt"
echo "\$ timeout 300 sh common/scripts/gpu_class_batch.sh /tmp/gpu40 16" > "$OUT/batch_stdout.txt"
timeout 300 sh common/scripts/gpu_class_batch.sh /tmp/gpu40 16 >> "$OUT/batch_stdout.txt" 2>&1
echo "gpu_class_batch.sh rc=$?" >> "$OUT/batch_stdout.txt"
echo "\$ sh common/scripts/check_gpu_lock_log.sh /tmp/gpu40/holds.log" >> "$OUT/batch_stdout.txt"
sh common/scripts/check_gpu_lock_log.sh /tmp/gpu40/holds.log >> "$OUT/batch_stdout.txt" 2>&1
echo "check_gpu_lock_log.sh rc=$?" >> "$OUT/batch_stdout.txt"
cat "$OUT/batch_stdout.txt"
cd /tmp/gpu40 && tar czf "$OUT/batch_files.tar.gz" gradebook.csv gradebook.json gradebook.html holds.log batch.log
ls -la "$OUT"
