#!/bin/sh
# Prepares build-gpu6/ (ignored, carried to the GPU machine) for stage 6's GPU
# run: the tree with the build pieces the grader needs, and the source-check
# verdicts of every file graded there, recorded here where libclang is (the
# GPU machine has none: the grader there reads the recorded verdicts).
#   cmake --build build --target grader banklab && sh tests/data/gpu/capstone/prep.sh
set -eu
src=$(git rev-parse --show-toplevel)
B="$src/build-gpu6"
cd "$src"
g=build/grader/grader
$g --lab 6 --check-source --solutions
$g --lab 6 --check-source
$g --lab 6 --check-source --impl labs/06-capstone/original.cu
for f in tests/grader/lab06/right/*.cu; do $g --lab 6 --check-source --impl "$f"; done
rm -rf "$B"
mkdir -p "$B/tree"
git ls-files -co --exclude-standard | grep -v '^build' | tar cf - -T - | tar xf - -C "$B/tree"
copy() { mkdir -p "$(dirname "$B/tree/$1")"; cp -a "$src/$1" "$B/tree/$1"; }
for f in grader/grader_config.json grader/libboost_context.a grader/grader_gpu_probe grader/libbanklab_ast_check.so \
         common/emulator/libbanklab_emulator.a common/bank_model/libbanklab_bank_model.a \
         grader/labs/lab06/liblab06_cpu_runner.a; do copy build/$f; done
cp -a build/common/emulator/unsupported_headers "$B/tree/build/common/emulator/"
[ -d build/cuda-tools ] && cp -a build/cuda-tools "$B/tree/build/"
strip -o "$B/tree/build/grader/grader" build/grader/grader
strip --strip-debug "$B/tree/build/common/emulator/libbanklab_emulator.a" "$B/tree/build/common/bank_model/libbanklab_bank_model.a"
cp -a build/grader/source_verdicts "$B/tree/build/grader/"
du -sh "$B"
