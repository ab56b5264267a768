#!/bin/sh
# A 40-submission stage-3 class graded on the GPU backend, for measuring a
# GPU node: correct files written several ways, the known-wrong files, the
# skeleton and one that does not build, as students s01..s40. Records every
# GPU hold (BANKLAB_GPU_LOCK_LOG), checks that no two holds of one GPU
# overlapped, writes the class report, and prints the wall time.
#   common/scripts/gpu_class_batch.sh OUT_DIR [JOBS]    (JOBS default: the CPU count)
# BANKLAB_BACKEND=cpu runs the same class on the emulator (a dry run without a GPU);
# BANKLAB_DISTINCT=1 makes the 40 files distinct (each builds its own runner).
set -eu
kit=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: gpu_class_batch.sh OUT_DIR [JOBS]}
jobs=${2:-$(nproc)}
grader="$kit/build/grader/grader"
backend=${BANKLAB_BACKEND:-gpu}
[ -x "$grader" ] || { echo "gpu_class_batch.sh: build the grader first (cmake --build --preset default --target grader)" >&2; exit 2; }
rm -rf "$out/class" "$out/holds.log" "$out/gradebook.json" "$out/gradebook.csv"  # a cold batch: every row graded
mkdir -p "$out/class"
set -- "$kit/solutions/03-padded-transpose/transpose.cu" "$kit"/tests/grader/lab03/right/*.cu \
  "$kit"/tests/grader/similarity/*.cu "$kit"/tests/grader/lab03/wrong/*.cu "$kit/labs/03-padded-transpose/transpose.cu"
files=$#
i=1
while [ $i -le 39 ]; do
  n=$(( (i - 1) % files + 1 ))
  eval "file=\${$n}"
  cp "$file" "$out/class/s$(printf %02d $i).cu"
  # BANKLAB_DISTINCT=1: no two files alike (a comment line apart), so that
  # none reuses another's build, as in a real class.
  [ "${BANKLAB_DISTINCT:-0}" = 1 ] && printf '// submission %d\n' "$i" >>"$out/class/s$(printf %02d $i).cu"
  i=$((i + 1))
done
printf '__global__ void transpose_padded(float* out, const float* in, int w, int h) { out[0] = in[0] }\n' \
  >"$out/class/s40.cu"
echo "gpu_class_batch.sh: 40 submissions in $out/class ($files distinct files cycled, s40 does not build), -j $jobs"
nvidia-smi -L 2>/dev/null || true
start=$(date +%s.%N)
BANKLAB_GPU_LOCK_LOG="$out/holds.log" "$grader" --lab 3 --submissions "$out/class" --backend "$backend" -j "$jobs" --seed 1 \
  --gradebook "$out/gradebook" 2>"$out/batch.log"
end=$(date +%s.%N)
tail -3 "$out/batch.log"
echo "gpu_class_batch.sh: wall time $(awk "BEGIN { printf \"%.1f\", $end - $start }") s for 40 submissions on the $backend backend"
"$grader" --report "$out/gradebook.json"
if [ "$backend" = gpu ]; then
  [ -s "$out/holds.log" ] || { echo "gpu_class_batch.sh: no GPU run recorded a hold in $out/holds.log" >&2; exit 1; }
  sh "$kit/common/scripts/check_gpu_lock_log.sh" "$out/holds.log"
fi
