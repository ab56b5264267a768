#!/bin/sh
# The kit's Slurm array job on a private single-node Slurm: a class of three
# stage-3 submissions (two correct, one that does not build) graded as two
# shards by common/scripts/slurm/grade_class.sh, merged into one gradebook
# and reported. Exits 77 (skipped, with the reason) where Slurm cannot start.
#   tests/slurm/test_grade_class.sh GRADER SOURCE_DIR WORK_DIR
set -u
grader=$1
source=$2
work=$3
rm -rf "$work"
mkdir -p "$work/class"
slurm="$work/slurm"
fail() { echo "FAIL: $*" >&2; exit 1; }
conf=$(sh "$source/tests/slurm/start_slurm.sh" "$slurm")
status=$?
if [ $status -ne 0 ]; then
  sh "$source/tests/slurm/stop_slurm.sh" "$slurm"
  exit $status
fi
trap 'sh "$source/tests/slurm/stop_slurm.sh" "$slurm"' EXIT
export SLURM_CONF="$conf"

cp "$source/tests/grader/similarity/different_swizzle.cu" "$work/class/ada.cu"
cp "$source/solutions/03-padded-transpose/transpose.cu" "$work/class/ben.cu"
printf '__global__ void transpose_padded(float* out) { this is not C++ }\n' >"$work/class/cy.cu"

ids=$(sh "$source/common/scripts/slurm/grade_class.sh" --lab 3 --submissions "$work/class" --shards 2 --seed 11 \
  --grader "$grader" -- --cpus-per-task=1 --time=15) || fail "grade_class.sh did not submit"
echo "$ids"
set -- $(echo "$ids" | tail -1)
array=$1
merge=$2
# Both jobs leave the queue (the merge runs after both shards).
i=0
while squeue -h -j "$array,$merge" 2>/dev/null | grep -q .; do
  [ $i -lt 600 ] || fail "the jobs did not finish in 600 s: $(squeue)"
  sleep 2
  i=$((i + 2))
done
for out in "$work/class"/slurm-*.out; do
  echo "== $out"
  cat "$out"
done

book="$work/class/gradebook.csv"
[ -f "$book" ] || fail "no merged gradebook $book"
cat "$book"
# Each shard graded its own share: 2 and 1 rows (ada, cy | ben), the merge all three.
[ "$(tail -n +2 "$work/class/gradebook-shard-1-of-2.csv" | cut -d, -f1 | tr '\n' ' ')" = "ada cy " ] ||
  fail "shard 1/2 should hold ada and cy"
[ "$(tail -n +2 "$work/class/gradebook-shard-2-of-2.csv" | cut -d, -f1 | tr '\n' ' ')" = "ben " ] ||
  fail "shard 2/2 should hold ben"
[ "$(tail -n +2 "$book" | wc -l)" -eq 3 ] || fail "the merged gradebook should have 3 rows"
grep -Eq '^ada,90(\.0)?,90(\.0)?,graded,cpu,11,' "$book" || fail "ada: 90/90 graded with seed 11 expected"
grep -Eq '^ben,90(\.0)?,90(\.0)?,graded,cpu,11,' "$book" || fail "ben: 90/90 graded with seed 11 expected"
grep -Eq '^cy,0(\.0)?,90(\.0)?,does not build,' "$book" || fail "cy: does not build expected"
[ -f "$work/class/gradebook.html" ] || fail "no class report gradebook.html"
echo "PASS: two Slurm array tasks graded their shards; the merge job joined them and wrote the class report"
