#!/bin/sh
# Makes the Gradescope autograder zip of one stage, of the quiz, or of all:
#   sh common/scripts/gradescope/make_bundle.sh LAB|quiz|all OUT_DIR
# writes OUT_DIR/banklab-labLAB-gradescope.zip (banklab-quiz-gradescope.zip
# for the quiz, which grades the uploaded answers.txt): setup.sh and run_autograder
# at the top (Gradescope's layout; it unpacks them in /autograder/source),
# the stage number and file name, and the kit's sources in banklab/ (the
# files git tracks, or every file but build folders outside a checkout),
# without solutions/: CPU grading does not need the reference sources, and
# a submission must find none on the machine.
# The stages are the folders labs/NN-name/, each with one lab file: the FILE
# of grader/labs/labNN/CMakeLists.txt, or the folder's one *.cu.
set -eu
[ $# -eq 2 ] || { echo "usage: make_bundle.sh LAB|quiz|all OUT_DIR" >&2; exit 2; }
lab=$1 out=$2
kit=$(cd "$(dirname "$0")/../../.." && pwd)

# The stage's lab file in labs/NN-name/, NN = the stage number.
lab_file() {
  found=""
  for folder in "$kit"/labs/[0-9][0-9]-*/; do
    nn=$(basename "$folder" | cut -c1-2)
    number=$(echo "$nn" | sed 's/^0*//')
    [ "$number" = "$1" ] || continue
    # The file the grader grades, as the stage's grader folder names it (FILE):
    # a stage may hold other .cu files (stage 6's shipped kernels and programs).
    named=$(sed -n 's/.*[[:space:]]FILE[[:space:]][[:space:]]*\([^[:space:])]*\).*/\1/p' \
      "$kit/grader/labs/lab$nn/CMakeLists.txt" 2>/dev/null | head -n 1)
    if [ -n "$named" ] && [ -f "$folder$named" ]; then
      found=$named
      continue
    fi
    set -- "$folder"*.cu
    [ $# -eq 1 ] && [ -f "$1" ] || { echo "make_bundle.sh: $folder must hold exactly one lab file (*.cu)" >&2; exit 2; }
    found=$(basename "$1")
  done
  [ -n "$found" ] || { echo "make_bundle.sh: no stage $lab: labs/ has $(stages | tr '\n' ' ')" >&2; exit 2; }
  echo "$found"
}
stages() {
  for folder in "$kit"/labs/[0-9][0-9]-*/; do basename "$folder" | cut -c1-2 | sed 's/^0*//'; done
}

if [ "$lab" = all ]; then
  for stage in $(stages) quiz; do sh "$0" "$stage" "$out"; done
  exit 0
fi
if [ "$lab" = quiz ]; then
  [ -f "$kit/labs/quiz/answers.txt" ] || { echo "make_bundle.sh: no labs/quiz/answers.txt in $kit" >&2; exit 2; }
  file=answers.txt
else
  file=$(lab_file "$lab")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$kit/common/scripts/gradescope/setup.sh" "$kit/common/scripts/gradescope/run_autograder" "$stage/"
echo "$lab" > "$stage/banklab-lab.txt"
echo "$file" > "$stage/banklab-file.txt"
mkdir "$stage/banklab"
if git -C "$kit" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$kit" && git ls-files -z -- . ':!:solutions' | xargs -0 tar cf - | tar xf - -C "$stage/banklab")
else
  (cd "$kit" && tar cf - --exclude='./build*' --exclude='./.git' --exclude='./solutions' . | tar xf - -C "$stage/banklab")
fi
[ ! -e "$stage/banklab/solutions" ] || { echo "make_bundle.sh: solutions/ must not be in the bundle" >&2; exit 1; }
name=$([ "$lab" = quiz ] && echo quiz || echo "lab$lab")
zip_file="$out/banklab-$name-gradescope.zip"
rm -f "$zip_file"
(cd "$stage" && cmake -E tar cf "$zip_file" --format=zip setup.sh run_autograder banklab-lab.txt banklab-file.txt banklab)
echo "$zip_file"
