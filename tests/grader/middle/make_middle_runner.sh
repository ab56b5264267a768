#!/bin/sh
# make_middle_runner.sh OBJCOPY AR RUNNER.a MIDDLE.a OUT.a: the stage's CPU
# runner library with its main renamed banklab_runner_main, and the objects of
# MIDDLE.a (middle_runner.cpp's main) added, as one library (the grader links
# a stage's runner from one library; tests only).
set -eu
objcopy=$1 ar=$2 runner=$3 middle=$4 out=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$runner" "$tmp/runner.a"
"$objcopy" --redefine-sym main=banklab_runner_main "$tmp/runner.a"
mkdir "$tmp/middle"
(cd "$tmp/middle" && "$ar" x "$middle")
"$ar" rcs "$tmp/runner.a" "$tmp"/middle/*.o
mv "$tmp/runner.a" "$out"
