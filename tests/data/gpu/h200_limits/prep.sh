#!/bin/sh
# Prepares /work/main/build-h200limits (ignored there, carried to the H200): main's tree with the build
# pieces the grader needs, and a student kit made from a fresh clone of main by make_student_kit.sh
# (its reference kernels compiled by this build's grader, built with nvcc), with impl/lab0N/ holding
# copies of the references handed in as a student's file.
set -eu
src=/work/main
B=/work/main/build-h200limits
rm -rf "$B" /tmp/h200limits-clone /tmp/h200limits-kit; mkdir -p "$B/tree"
cd "$src"
git ls-files -co --exclude-standard | grep -v '^build' | tar cf - -T - | tar xf - -C "$B/tree"
copy() { mkdir -p "$(dirname "$B/tree/$1")"; cp -a "$src/$1" "$B/tree/$1"; }
for f in grader/grader_config.json grader/libboost_context.a grader/grader_gpu_probe grader/libbanklab_ast_check.so \
         common/emulator/libbanklab_emulator.a common/bank_model/libbanklab_bank_model.a \
         common/gpu_probe/libbanklab_cycle_probe.a; do copy build/$f; done
cp -a build/common/emulator/unsupported_headers "$B/tree/build/common/emulator/"
for n in 1 2 3 4 5; do copy build/grader/labs/lab0$n/liblab0${n}_cpu_runner.a; done
strip -o "$B/tree/build/grader/grader" build/grader/grader
strip --strip-debug "$B/tree/build/common/emulator/libbanklab_emulator.a" "$B/tree/build/common/bank_model/libbanklab_bank_model.a"
cp -a build/grader/source_verdicts "$B/tree/build/grader/"
# The student kit, from a fresh clone of main (the commit this folder's README names).
git clone -q "$src" /tmp/h200limits-clone
BANKLAB_GRADER=$src/build/grader/grader sh /tmp/h200limits-clone/common/scripts/make_student_kit.sh /tmp/h200limits-kit
mkdir -p "$B/kit"
cp -a /tmp/h200limits-kit/. "$B/kit/"
for n in 1 2 3 4 5; do mkdir -p "$B/kit/impl/lab0$n"; cp "$src"/solutions/0$n-*/*.cu "$B/kit/impl/lab0$n/"; done
ls "$B/kit/grader/labs/"*/reference/ | head -20
test ! -e "$B/kit/solutions" && echo "kit: no solutions/"
du -sh "$B"
