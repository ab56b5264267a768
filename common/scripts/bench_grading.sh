#!/bin/sh
# Grading speed, as a table: each stage graded with its runners cached (the
# skeleton, `grader --lab N`, default --runner-jobs: one warm-up, then the
# median of 3 runs of /usr/bin/time), and a 40-submission stage-3 class
# (common/scripts/gpu_class_batch.sh on the emulator, 40 distinct files: cold,
# every file built, then again with every runner cached). Issue 20's targets: under 1 s per
# stage cached, the batch of 40 under 2 minutes on 2 cores.
#
#   sh common/scripts/bench_grading.sh [BUILD_DIR] [--no-batch]
#
# Run it on a quiet machine: the grader picks as many runs side by side as
# there are idle cores (load average), so a loaded machine reads slower.
set -eu
kit=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$kit/build}
batch=yes
[ "${2:-}" = "--no-batch" ] && batch=no
grader="$build/grader/grader"
[ -x "$grader" ] || { echo "bench_grading.sh: no grader at $grader (cmake --build --preset default --target grader)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null 2>&1 || { echo "bench_grading.sh: needs /usr/bin/time (apt-get install -y time)" >&2; exit 2; }
# Under the build folder, not mktemp's private folder: the sandbox's user
# must be able to reach the files it builds.
tmp="$build/bench-grading"
rm -rf "$tmp" && mkdir -p "$tmp"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$kit" rev-parse --short HEAD 2>/dev/null || echo 'no git')"
printf '%-8s %10s %10s %10s\n' stage "wall s" "user s" "sys s"
for n in 1 2 3 4 5; do
  "$grader" --lab "$n" >/dev/null 2>&1 || true  # builds and caches the runners
  for i in 1 2 3; do
    /usr/bin/time -f "%e %U %S" -o "$tmp/t$i" "$grader" --lab "$n" >/dev/null 2>&1 || true
  done
  # tail -1: time writes "Command exited with non-zero status 1" first.
  for i in 1 2 3; do tail -n 1 "$tmp/t$i"; done | sort -n | sed -n 2p | awk -v n="$n" '{ printf "lab%-5s %10.2f %10.2f %10.2f\n", n, $1, $2, $3 }'
done
[ $batch = yes ] || exit 0
echo
printf '%-28s %10s\n' "stage-3 class of 40" "wall s"
for pass in cold cached; do
  # gpu_class_batch.sh empties the class folder and the gradebook, not the
  # grader's cache: the second pass finds every runner built.
  [ $pass = cold ] && rm -rf "$build/grader/cache"
  BANKLAB_DISTINCT=1 BANKLAB_BACKEND=cpu sh "$kit/common/scripts/gpu_class_batch.sh" "$tmp/class40" "$(nproc)" >"$tmp/batch_$pass.txt" 2>&1 || true
  wall=$(sed -n 's/.*wall time \([0-9.]*\) s for 40.*/\1/p' "$tmp/batch_$pass.txt")
  printf '%-28s %10s\n' "-j $(nproc), $pass" "${wall:-failed (see below)}"
  [ -n "$wall" ] || tail -20 "$tmp/batch_$pass.txt"
done
