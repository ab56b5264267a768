#!/bin/sh
# The second H200 run: step 2 alone, gpu_class_batch.sh with each check limited to 20 s
# (grader --time-limit 20; the script's copy differs in that argument only), since in the
# first run (device_command.sh) the hanging submission s12 (lab03/wrong/infinite_loop.cu)
# held the GPU lock for 4 x 60 s and the batch did not finish in 300 s.
#   sh build-gpubatch/tree/tests/data/gpu/h200_merged/device_command2.sh
set -u
cp -a build-gpubatch /tmp/bl && chmod -R a+rX /tmp/bl
cd /tmp/bl/tree
sed 's/ --seed 1 \\$/ --seed 1 --time-limit 20 \\/' common/scripts/gpu_class_batch.sh > common/scripts/gpu_class_batch_t20.sh
diff common/scripts/gpu_class_batch.sh common/scripts/gpu_class_batch_t20.sh > "$OUT/script_diff.txt"
echo "\$ timeout 470 sh common/scripts/gpu_class_batch_t20.sh /tmp/gpu40 16" > "$OUT/batch_stdout.txt"
timeout 470 sh common/scripts/gpu_class_batch_t20.sh /tmp/gpu40 16 >> "$OUT/batch_stdout.txt" 2>&1
echo "gpu_class_batch_t20.sh rc=$?" >> "$OUT/batch_stdout.txt"
echo "\$ sh common/scripts/check_gpu_lock_log.sh /tmp/gpu40/holds.log" >> "$OUT/batch_stdout.txt"
sh common/scripts/check_gpu_lock_log.sh /tmp/gpu40/holds.log >> "$OUT/batch_stdout.txt" 2>&1
echo "check_gpu_lock_log.sh rc=$?" >> "$OUT/batch_stdout.txt"
cat "$OUT/batch_stdout.txt" "$OUT/script_diff.txt"
cd /tmp/gpu40 && tar czf "$OUT/batch_files.tar.gz" gradebook.csv gradebook.json gradebook.html holds.log batch.log
ls -la "$OUT"
