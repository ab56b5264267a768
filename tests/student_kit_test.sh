#!/bin/sh
# The student kit, made and then used as its README says, in OUT_DIR:
#   sh tests/student_kit_test.sh OUT_DIR
set -eu
out=$1
here=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out"
sh "$here/common/scripts/make_student_kit.sh" "$out" > /dev/null
fail() { echo "student kit: $*" >&2; exit 1; }
for gone in solutions tests/CMakeLists.txt tests/grader/golden grader/quiz/key.cpp .ci grader/labs/lab03/results/h200_gpu_backend.txt common/scripts/gradescope; do
  [ ! -e "$out/$gone" ] || fail "has $gone"
done
# No instructor option in the docs students get.
if grep -rn -e "--solutions" -e "--submissions" -e "gradescope" "$out/README.md" "$out/labs" "$out/handouts"; then
  fail "its docs name instructor options"
fi
cd "$out"
# The README's one command: packages (already there in CI), the grader, stage 1 graded, the rest built.
sh common/scripts/setup.sh > setup.log 2>&1 || { cat setup.log; fail "setup.sh failed"; }
grep -q "Score: 0/90" setup.log && grep -q "main job: grading stage 1" setup.log || { cat setup.log; fail "stage 1 was not graded (0/90)"; }
grep -q "what to do next" setup.log || { cat setup.log; fail "set-up did not say what to do next"; }
if build/grader/grader --help | grep -q -e "--solutions"; then fail "grader --help shows --solutions"; fi
# The quiz without its key: the key file scores 24/24 through the hashes, a
# wrong file 0/24 and is told what to revisit, never the right answer.
build/grader/grader --lab quiz --impl "$here/solutions/quiz/answers.txt" > quiz.log 2>&1 || { cat quiz.log; fail "the key did not score 24/24"; }
grep -q "Score: 24/24" quiz.log || { cat quiz.log; fail "the key did not score 24/24"; }
status=0
build/grader/grader --lab quiz --impl "$here/tests/grader/quiz/wrong_answers.txt" > quiz.log 2>&1 || status=$?
[ "$status" -eq 1 ] && grep -q "Score: 0/24" quiz.log && grep -q "revisit: " quiz.log || { cat quiz.log; fail "wrong quiz answers not graded 0/24"; }
if grep -q -e "the right one" -e "why: " quiz.log; then cat quiz.log; fail "the kit's quiz shows the key"; fi
# --lab all: every stage and the quiz, and a total.
status=0
build/grader/grader --lab all --backend cpu > all.log 2>&1 || status=$?
[ "$status" -eq 1 ] && grep -q "^Total: .* over 6 stages and the quiz" all.log || { cat all.log; fail "--lab all printed no total"; }
status=0
# The GPU path: where nvcc made the kit, the reference kernels ship compiled
# (no source); --backend gpu then grades on a GPU, and on a machine without
# one it says why and what to use instead.
if command -v nvcc > /dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  ls grader/labs/lab03/reference/*.o > /dev/null 2>&1 || fail "made with nvcc, but no compiled reference kernels in grader/labs/lab03/reference/"
fi
[ ! -e grader/labs/lab03/reference ] || ! ls grader/labs/lab03/reference | grep -q '\.cu$' || fail "a reference kernel ships as source"
build/grader/grader --lab 3 --backend gpu > gpu.log 2>&1 || status=$?
if nvidia-smi > /dev/null 2>&1; then
  [ "$status" -le 1 ] && grep -q "^Score: " gpu.log || { cat gpu.log; fail "--backend gpu did not grade on this GPU"; }
else
  [ "$status" -eq 2 ] && grep -q -e "no usable GPU" -e "no reference" gpu.log && grep -q -e "--backend cpu" gpu.log ||
    { cat gpu.log; fail "--backend gpu did not say why not"; }
fi
echo "student kit: built and graded from its README in $out"
