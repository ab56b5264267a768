#!/bin/sh
# BankLab set-up on Debian 12: installs the missing packages, configures,
# builds the grader first and runs the main job (grading stage 1, the course's
# first stage), says what to do next, then builds the rest. Safe to run again
# at any time.
#   sh common/scripts/setup.sh              all of it
#   sh common/scripts/setup.sh --quick      stop after the main job (the grader and banksim only)
#   sh common/scripts/setup.sh --deps-only  only the packages (what CI does)
set -eu
cd "$(dirname "$0")/../.."
case "${1:-}" in
  ""|--quick|--deps-only) ;;
  *) echo "usage: sh common/scripts/setup.sh [--quick | --deps-only]" >&2; exit 2 ;;
esac

packages="cmake make g++ binutils doctest-dev libboost-context-dev libcli11-dev nlohmann-json3-dev bubblewrap libseccomp-dev libclang-dev libxml2-utils doxygen emscripten chromium slurm-wlm munge fonts-noto-cjk"
missing=""
for package in $packages; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done
if [ -n "$missing" ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install:$missing" >&2; exit 1; }
    sudo=sudo
  fi
  echo "== setup: installing$missing"
  $sudo apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
else
  echo "== setup: all packages present ($packages)"
fi
[ "${1:-}" = "--deps-only" ] && exit 0

echo "== setup: configure"
cmake --preset default
echo "== setup: build the grader first (cmake --build --preset default --target quickstart)"
cmake --build --preset default --target quickstart
echo "== setup: main job: grading stage 1 (labs/01-bank-mapping/bank_mapping.cu)"
echo "\$ build/grader/grader --lab 1"
status=0
build/grader/grader --lab 1 || status=$?
case $status in
  0) echo "== setup: the grader works; stage 1 already has full marks" ;;
  1) echo "== setup: the grader works. Stage 1 is not solved yet: that is your first task" ;;
  *) echo "== setup: the grader failed (exit status $status)" >&2; exit "$status" ;;
esac
next() {
  echo "== setup: what to do next"
  echo "  1. read handouts/README.md (the course, stage by stage), then labs/01-bank-mapping/README.md"
  echo "  2. edit labs/01-bank-mapping/bank_mapping.cu, then run: build/grader/grader --lab 1"
  echo "     (build/grader/grader --lab 1 --hint for a hint, --hint 2 for the next one)"
  echo "  3. stages 2 to 5 the same way; build/grader/grader --lab all grades every stage and the quiz, with a total"
}
next
[ "${1:-}" = "--quick" ] && { echo "== setup: done (--quick: the rest builds with cmake --build --preset default)"; exit 0; }
echo "== setup: build the rest (banklab run, the course site, the bank explorer$( [ -f tests/CMakeLists.txt ] && echo ', the tests'))"
cmake --build --preset default
echo "== setup: done; everything is built"
next
