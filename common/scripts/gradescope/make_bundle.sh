#!/bin/sh
# Makes the Gradescope autograder zip of one stage:
#   sh common/scripts/gradescope/make_bundle.sh LAB OUT_DIR
# writes OUT_DIR/banklab-labLAB-gradescope.zip: setup.sh and run_autograder
# at the top (Gradescope's layout; it unpacks them in /autograder/source),
# the stage number and file name, and the kit's sources in banklab/ (the
# files git tracks, or every file but build folders outside a checkout).
set -eu
[ $# -eq 2 ] || { echo "usage: make_bundle.sh LAB OUT_DIR" >&2; exit 2; }
lab=$1 out=$2
kit=$(cd "$(dirname "$0")/../../.." && pwd)
case $lab in
  1) file=bank_mapping.cu ;;
  2) file=stride.cu ;;
  3) file=transpose.cu ;;
  4) file=swizzle.cu ;;
  5) file=wide.cu ;;
  *) echo "make_bundle.sh: no stage $lab (1 to 5)" >&2; exit 2 ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$kit/common/scripts/gradescope/setup.sh" "$kit/common/scripts/gradescope/run_autograder" "$stage/"
echo "$lab" > "$stage/banklab-lab.txt"
echo "$file" > "$stage/banklab-file.txt"
mkdir "$stage/banklab"
if git -C "$kit" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$kit" && git ls-files -z | xargs -0 tar cf - | tar xf - -C "$stage/banklab")
else
  (cd "$kit" && tar cf - --exclude='./build*' --exclude='./.git' . | tar xf - -C "$stage/banklab")
fi
zip_file="$out/banklab-lab$lab-gradescope.zip"
rm -f "$zip_file"
(cd "$stage" && cmake -E tar cf "$zip_file" --format=zip setup.sh run_autograder banklab-lab.txt banklab-file.txt banklab)
echo "$zip_file"
