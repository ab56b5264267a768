#!/bin/sh
# Prepares /work/main/build-gpubatch (ignored there, carried to the H200): this branch's tree with the
# build pieces the grader needs (as ../h200_sandboxed/prep_tree.sh, without the student kit).
set -eu
src=/work/wt-gpubatch
B=/work/main/build-gpubatch
rm -rf "$B"; mkdir -p "$B/tree"
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
du -sh "$B"
