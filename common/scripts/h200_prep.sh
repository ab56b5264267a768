#!/bin/sh
# Makes what an H200 run of the tree and the student kit needs, on the build
# machine (CPU only, with libclang and nvcc), for the device tool to carry:
#   sh common/scripts/h200_prep.sh DIR       (DIR: an ignored folder of the repository, e.g. build-h200)
# 1. records the source-check verdicts (libclang here) of every file the run
#    grades: the five stages' solutions (the kit's references are copies of
#    them) and skeletons, the correct alternatives (tests/grader/lab0N/right/,
#    similarity/different_*) and the hostile files of h200_sandboxed.sh's tree part;
# 2. copies the tree with the build pieces the grader needs into DIR/tree;
# 3. makes a student kit from a fresh clone (its reference kernels compiled by
#    this build's grader with nvcc) into DIR/kit, with impl/lab0N/ holding
#    copies of the references handed in as a student's file.
# On the H200: sh DIR/tree/common/scripts/h200_device_run.sh DIR (h200_device_run.sh).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
B="$src/${1:?usage: h200_prep.sh DIR (a folder name under the repository root)}"
g="$src/build/grader/grader"
cd "$src"
for n in 1 2 3 4 5; do
  "$g" --lab $n --check-source --solutions
  "$g" --lab $n --check-source
done
for f in tests/grader/lab0[1-5]/right/*.cu tests/grader/similarity/different_*.cu \
         tests/grader/lab03/hostile/prints_megabyte.cu tests/grader/lab03/hostile/calls_host_function.cu \
         tests/grader/lab03/hostile/stolen_secret.cu tests/grader/lab05/hostile/global_copy.cu \
         tests/grader/lab05/hostile/quads_passes_two.cu tests/grader/lab04/hostile/chunk_read_once.cu; do
  lab=$(echo "$f" | sed 's|.*/lab0\([0-9]\)/.*|\1|; s|.*/similarity/.*|3|')
  "$g" --lab "$lab" --check-source --impl "$f" || true  # a refused file is refused on the H200 too
done
echo "$(ls build/grader/source_verdicts | wc -l) verdicts on record"
rm -rf "$B" "$B.clone" "$B.kit"; mkdir -p "$B/tree"
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
git clone -q "$src" "$B.clone"
BANKLAB_GRADER="$g" sh "$B.clone/common/scripts/make_student_kit.sh" "$B.kit"
mkdir -p "$B/kit"
cp -a "$B.kit/." "$B/kit/"
rm -rf "$B.clone" "$B.kit"
for n in 1 2 3 4 5; do mkdir -p "$B/kit/impl/lab0$n"; cp "$src"/solutions/0$n-*/*.cu "$B/kit/impl/lab0$n/"; done
test ! -e "$B/kit/solutions" && echo "kit: no solutions/"
du -sh "$B"
