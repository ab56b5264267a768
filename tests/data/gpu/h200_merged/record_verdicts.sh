#!/bin/sh
# Records the source-check verdicts (libclang here) for every file the merged-main H200 run grades:
# the five stages' solutions and skeletons, the hostile files of ../h200_sandboxed/, and the
# 24 distinct files (plus the one that does not build) that gpu_class_batch.sh cycles into 40.
cd /work/wt-gpubatch
g=build/grader/grader
for n in 1 2 3 4 5; do
  $g --lab $n --check-source --solutions
  $g --lab $n --check-source
done
for f in tests/grader/lab03/hostile/prints_megabyte.cu tests/grader/lab03/hostile/calls_host_function.cu \
         tests/grader/lab03/hostile/stolen_secret.cu \
         tests/grader/lab05/hostile/global_copy.cu tests/grader/lab05/hostile/quads_passes_two.cu \
         tests/grader/lab04/hostile/chunk_read_once.cu \
         tests/grader/lab03/right/*.cu tests/grader/similarity/*.cu tests/grader/lab03/wrong/*.cu; do
  lab=$(echo "$f" | sed 's|.*/lab0\([0-9]\)/.*|\1|; s|.*/similarity/.*|3|')
  $g --lab $lab --check-source --impl $f
done
# s40 of gpu_class_batch.sh, the same bytes (it does not build; its verdict lets it reach the build).
mkdir -p /tmp/gpubatch_s40
printf '__global__ void transpose_padded(float* out, const float* in, int w, int h) { out[0] = in[0] }\n' >/tmp/gpubatch_s40/s40.cu
$g --lab 3 --check-source --impl /tmp/gpubatch_s40/s40.cu
ls build/grader/source_verdicts | wc -l
