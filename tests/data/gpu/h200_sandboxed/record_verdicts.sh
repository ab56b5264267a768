#!/bin/sh
# Records the source-check verdicts (libclang here) for every file the H200 run grades.
cd /work/wt-gpu
g=build/grader/grader
for n in 1 2 3 4 5; do
  $g --lab $n --check-source --solutions
  $g --lab $n --check-source
done
for f in tests/grader/lab03/hostile/prints_megabyte.cu tests/grader/lab03/hostile/calls_host_function.cu \
         tests/grader/lab03/hostile/stolen_secret.cu tests/grader/lab03/hostile/forged_stdout.cu \
         tests/grader/lab05/hostile/global_copy.cu tests/grader/lab05/hostile/fixed_grids.cu \
         tests/grader/lab05/hostile/kernel_sees_pricing.cu tests/grader/lab05/hostile/quads_passes_two.cu \
         tests/grader/lab04/hostile/global_copy.cu tests/grader/lab04/hostile/chunk_read_once.cu; do
  lab=$(echo "$f" | sed 's|.*/lab0\([0-9]\)/.*|\1|')
  $g --lab $lab --check-source --impl $f
done
ls build/grader/source_verdicts | wc -l
