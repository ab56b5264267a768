#!/bin/sh
# Makes the tree students receive: the kit without the reference solutions,
# the quiz's key, the test suites (golden files, most known-wrong
# submissions), CI, the GPU result logs and the instructor tools, with a
# README for students. The evidence the reading cites ships, in the same
# place as in the full tree: the H200 measurements (tests/data/), the
# known-wrong submissions the handouts show, the H200 transpose ladder.
#   sh common/scripts/make_student_kit.sh OUT_DIR     (OUT_DIR must not exist)
set -eu
[ $# -eq 1 ] || { echo "usage: make_student_kit.sh OUT_DIR" >&2; exit 2; }
out=$1
[ ! -e "$out" ] || { echo "make_student_kit.sh: $out exists; give a new folder" >&2; exit 2; }
kit=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
list=$(mktemp)
trap 'rm -f "$list" "$list.kit"' EXIT
if git -C "$kit" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$kit" && git ls-files) > "$list"
else
  (cd "$kit" && find . -type f ! -path './build*' ! -path './.git/*' | sed 's|^\./||') > "$list"
fi
grep -v -E '^(solutions/|tests/|\.ci/|grader/labs/[^/]+/results/|grader/labs/gpu_results|common/scripts/gradescope/|common/scripts/student_kit/|common/scripts/make_student_kit\.sh|grader/quiz/key\.cpp|common/scripts/gpu_results\.sh|grader/README\.md|README\.md$)' \
  "$list" > "$list.kit"
grep -E '^(tests/data/|grader/labs/lab03/results/h200_transpose_ladder\.txt$|tests/grader/lab0[1-5]/wrong/(sync_inside_bounds|pad_wrong_dim|conflicted_tile|quads_float2|write_only_swizzle|swizzle_row_index|chunk_pad_one_float)\.cu$)' \
  "$list" >> "$list.kit" || true
(cd "$kit" && tar cf - -T "$list.kit") | tar xf - -C "$out"
cp "$kit/common/scripts/student_kit/README.md" "$out/README.md"
# The GPU checks' reference kernels, compiled (device code and PTX, no source),
# by this tree's grader where it was built with nvcc (BANKLAB_GRADER: another).
grader=${BANKLAB_GRADER:-$kit/build/grader/grader}
if ! { [ -x "$grader" ] && "$grader" --lab all --kit-references "$out" >&2; }; then
  echo "make_student_kit.sh: no compiled reference kernels ($grader, built with nvcc, makes them): --backend gpu refuses in this kit" >&2
fi
echo "$out"
