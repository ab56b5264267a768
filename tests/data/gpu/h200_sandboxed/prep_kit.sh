#!/bin/sh
# The student kit (made beforehand in /tmp/kit-gpu by the branch's
# make_student_kit.sh, its reference kernels compiled by this build's grader);
# its build folder is the tree's (same sources: checked), copied on the device.
set -eu
src=/work/wt-gpu
B=/work/main/build-gpu
rm -rf "$B/kit"
cp -a /tmp/kit-gpu "$B/kit"
cp "$src/grader/src/sandbox.cpp" "$B/kit/grader/src/sandbox.cpp"  # the truncate fix, made after the kit (15:14)
diff -r "$src/grader/src" "$B/kit/grader/src" && diff -r "$src/common/emulator" "$B/kit/common/emulator" && diff -r "$src/grader/labs" "$B/kit/grader/labs" -x reference -x results && echo "kit sources = branch sources" || echo "kit sources differ"
for n in 1 2 3 4 5; do mkdir -p "$B/kit/impl/lab0$n"; cp "$src"/solutions/0$n-*/*.cu "$B/kit/impl/lab0$n/"; done
ls "$B/kit/grader/labs/"*/reference/
du -sh "$B"
