#!/bin/sh
# The GPU backend in the sandbox's fallback on a GPU machine without
# bubblewrap or libclang (the H200 runs of issues 20 and 21):
#   sh common/scripts/h200_sandboxed.sh tree TREE OUT     the instructor's tree
#   sh common/scripts/h200_sandboxed.sh kit KIT OUT       a student kit
#   sh common/scripts/h200_sandboxed.sh right TREE OUT    the tree's correct alternatives
#                                    (tests/grader/lab0N/right/, similarity/different_*)
# TREE or KIT holds its build folder (build/, made on a machine with libclang,
# with the source-check verdicts of every file graded here: grader
# --check-source). A kit holds impl/lab0N/ with copies of the references.
# The runners are built first, 8 at a time (grader --build-only), then each
# file is graded alone on the GPU; OUT gets one log per run and summary.txt.
set -u
mode=$1 root=$2 out=$3
mkdir -p "$out"
sum="$out/summary.txt"
{
  echo "# $mode: $(date -u '+%Y-%m-%d %H:%M UTC'), kernel $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  command -v bwrap >/dev/null && echo "bwrap: $(command -v bwrap)" || echo "bwrap: not installed"
  ldconfig -p | grep -q 'libclang' && echo "libclang: installed" || echo "libclang: not installed"
  ldconfig -p | grep -q 'libseccomp' && echo "libseccomp: installed" || echo "libseccomp: not installed"
  echo "grader runs as uid $(id -u)"
} > "$sum" 2>&1
g="$root/build/grader/grader"
# The jobs: NAME LAB ARGS (one per line).
jobs="$out/jobs.txt"
: > "$jobs"
if [ "$mode" = tree ]; then
  for n in 1 2 3 4 5; do
    echo "lab0${n}_solution $n --solutions" >> "$jobs"
    echo "lab0${n}_skeleton $n" >> "$jobs"
  done
  for f in lab03/hostile/prints_megabyte.cu lab03/hostile/calls_host_function.cu lab03/hostile/stolen_secret.cu \
           lab05/hostile/global_copy.cu lab05/hostile/quads_passes_two.cu lab04/hostile/chunk_read_once.cu; do
    lab=$(echo "$f" | sed 's|lab0\([0-9]\)/.*|\1|')
    echo "hostile_lab0${lab}_$(basename "$f" .cu) $lab --impl $root/tests/grader/$f" >> "$jobs"
  done
  # A file no machine with libclang checked: refused, not graded.
  cp "$root/solutions/03-padded-transpose/transpose.cu" "$out/unchecked.cu"
  echo "// checked nowhere" >> "$out/unchecked.cu"
  echo "unchecked_lab03 3 --impl $out/unchecked.cu" >> "$jobs"
elif [ "$mode" = right ]; then
  for f in "$root"/tests/grader/lab0[1-5]/right/*.cu "$root"/tests/grader/similarity/different_*.cu; do
    case $f in */similarity/*) lab=3 ;; *) lab=$(echo "$f" | sed 's|.*/lab0\([0-9]\)/right/.*|\1|') ;; esac
    echo "right_lab0${lab}_$(basename "$f" .cu) $lab --impl $f" >> "$jobs"
  done
else
  for n in 1 2 3 4 5; do
    echo "kit_lab0${n}_skeleton $n" >> "$jobs"
    echo "kit_lab0${n}_reference $n --impl $(ls "$root/impl/lab0$n/"*.cu | head -1)" >> "$jobs"
  done
fi
start=$(date +%s)
# Builds, 8 at a time (the GPU is not used).
while read -r name lab args; do
  echo "$g --lab $lab $args --build-only > $out/build_$name.txt 2>&1"
done < "$jobs" | xargs -P 8 -I{} sh -c '{}'
echo "runners built in $(( $(date +%s) - start )) s" >> "$sum"
# Grading, one at a time on the GPU.
while read -r name lab args; do
  echo "\$ grader --lab $lab $args --backend gpu --seed 1 --verbose" > "$out/$name.txt"
  t0=$(date +%s)
  # shellcheck disable=SC2086
  "$g" --lab "$lab" $args --backend gpu --seed 1 --verbose >> "$out/$name.txt" 2>&1 < /dev/null
  status=$?
  echo "$name: $(grep -h '^Score:' "$out/$name.txt" | head -1 | cut -c1-40) exit $status, $(( $(date +%s) - t0 )) s" >> "$sum"
done < "$jobs"
grep -h '^sandbox:\|^source check:' "$out"/*.txt | sort | uniq -c >> "$sum"
rm -f "$out/unchecked.cu"
cat "$sum"
