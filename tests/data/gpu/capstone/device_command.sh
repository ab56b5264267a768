#!/bin/sh
# Stage 6 on a GPU machine (run from the device copy's root, build-gpu6 carried):
#   sh build-gpu6/tree/tests/data/gpu/capstone/device_command.sh
# 1. the grader's GPU backend on the reference, the skeleton and the right/ files
#    (speed-ups over the shipped kernels, Nsight Compute against the emulator);
# 2. the five programs with --time, built with the skeleton (shipped = yours) and
#    with the reference as capstone.cu;
set -u
cp -a build-gpu6 /tmp/bl && chmod -R a+rX /tmp/bl
cd /tmp/bl/tree
# The grader's paths, recorded on the build machine, moved into this copy: the
# tree graded and its headers are the ones the source-check verdicts were
# recorded for, whatever this machine's copy of the repository holds.
recorded=$(sed -n 's/.*"source_dir": *"\([^"]*\)".*/\1/p' build/grader/grader_config.json)
sed -i "s#\"$recorded#\"/tmp/bl/tree#g" build/grader/grader_config.json
{ date -u; uname -r; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader;
  nproc; g++ --version | head -1; nvcc --version | tail -2; command -v ncu; } > "$OUT/env.txt" 2>&1
g=build/grader/grader
# RUNS: what to grade (solutions, skeleton or a file), default all; NO_PROGRAMS=1 skips the programs.
set -- ${RUNS:-solutions skeleton $(ls tests/grader/lab06/right/*.cu)}
args() { case $1 in solutions) echo --solutions ;; skeleton) ;; *) echo --impl "$1" ;; esac; }
# The runners first, side by side (nvcc and g++ on 16 cores), then each file graded alone on the GPU.
for a in "$@"; do $g --lab 6 $(args "$a") --backend gpu --build-only > /dev/null 2>&1 & done
# The programs, meanwhile: the skeleton's build (both kernels the shipped ones) and the reference's.
if [ -z "${NO_PROGRAMS:-}" ]; then
mkdir -p /tmp/ref && cp -a . /tmp/ref/ && cp solutions/06-capstone/capstone.cu /tmp/ref/labs/06-capstone/capstone.cu
for p in reduce scan gemm histogram stencil; do
  nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o /tmp/skel_$p labs/06-capstone/programs/$p.cu &
  nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o /tmp/ref_$p /tmp/ref/labs/06-capstone/programs/$p.cu &
done
for p in reduce scan gemm histogram stencil; do
  wait
  echo "\$ $p --time   (skeleton: the shipped kernel twice)"; /tmp/skel_$p --time
  echo "\$ $p --time   (the reference as capstone.cu)"; /tmp/ref_$p --time
done > "$OUT/programs.txt" 2>&1
fi
wait
# Each file graded by its own grader, side by side: their CPU checks share the
# 16 cores, and the grader's GPU lock gives each timing and ncu run the GPU alone.
i=0
for a in "$@"; do
  i=$((i + 1))
  { echo "\$ grader --lab 6 $(args "$a") --backend gpu --seed 1 --verbose"
    timeout 400 $g --lab 6 $(args "$a") --backend gpu --seed 1 --verbose 2>&1
    echo "exit status $?"; } > "/tmp/grading.$i.txt" 2>&1 &
done
wait
i=0
for a in "$@"; do i=$((i + 1)); cat "/tmp/grading.$i.txt"; done > "$OUT/grading.txt"
tail -5 "$OUT/grading.txt"; grep -h "Score\|exit status" "$OUT/grading.txt"; [ -f "$OUT/programs.txt" ] && grep -v "^original\|ran$" "$OUT/programs.txt"
