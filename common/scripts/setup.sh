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

packages="cmake make g++ binutils doctest-dev libboost-context-dev libcli11-dev nlohmann-json3-dev bubblewrap libseccomp-dev libclang-dev libopenblas-dev libxml2-utils doxygen emscripten chromium slurm-wlm munge fonts-noto-cjk"
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

# nvdisasm, for `banklab run`'s comparison with nvcc's own code: where nvcc
# is installed without it (a Debian CUDA toolkit, a container), NVIDIA's
# nvidia-cuda-nvdisasm from PyPI into build/cuda-tools/ (found there by
# banklab), of nvcc's release or the nearest later one of its major version
# (PyPI has not every release; a newer nvdisasm reads older cubins). Without
# network the rest of set-up goes on, and banklab says what it did not compare.
install_nvdisasm() {
  nvcc=$(command -v nvcc || true)
  [ -n "$nvcc" ] || [ ! -x /usr/local/cuda/bin/nvcc ] || nvcc=/usr/local/cuda/bin/nvcc
  [ -n "$nvcc" ] || return 0
  if command -v nvdisasm >/dev/null || [ -x "$(dirname "$nvcc")/nvdisasm" ] || [ -x /usr/local/cuda/bin/nvdisasm ]; then
    return 0
  fi
  tools=build/cuda-tools
  if [ -x "$tools/bin/nvdisasm" ]; then
    echo "== setup: nvdisasm present ($tools/bin/nvdisasm, $("$tools/bin/nvdisasm" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'))"
    return 0
  fi
  release=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')
  major=${release%.*} minor=${release#*.}
  [ -n "$release" ] || { echo "== setup: nvdisasm not installed: cannot read nvcc's release from $nvcc --version" >&2; return 0; }
  versions=$(python3 -m pip index versions nvidia-cuda-nvdisasm 2>/dev/null | sed -n 's/^Available versions: //p' | tr -d ' ' | tr ',' '\n')
  pick=$(echo "$versions" | awk -F. -v M="$major" -v m="$minor" '$1 == M && $2 >= m' | sort -t. -k1,1n -k2,2n -k3,3n | head -n 1)
  if [ -z "$pick" ]; then
    echo "== setup: nvdisasm not installed: PyPI gave no nvidia-cuda-nvdisasm $major.x at or after nvcc's $release (no network?); banklab run will say it did not compare nvcc's code" >&2
    return 0
  fi
  echo "== setup: installing nvdisasm $pick (PyPI nvidia-cuda-nvdisasm, for nvcc $release) into $tools"
  rm -rf "$tools/pypi"
  if ! python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps --target "$tools/pypi" "nvidia-cuda-nvdisasm==$pick"; then
    echo "== setup: nvdisasm not installed: pip failed (see above); banklab run will say it did not compare nvcc's code" >&2
    return 0
  fi
  found=$(find "$tools/pypi" -type f -name nvdisasm | head -n 1)
  [ -n "$found" ] || { echo "== setup: nvdisasm not installed: the package holds no nvdisasm" >&2; return 0; }
  chmod +x "$found"
  mkdir -p "$tools/bin"
  ln -sf "$(cd "$(dirname "$found")" && pwd)/nvdisasm" "$tools/bin/nvdisasm"
  "$tools/bin/nvdisasm" --version | tail -n 1
}
install_nvdisasm
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
  echo "  3. stages 2 to 6 the same way; build/grader/grader --lab all grades every stage and the quiz, with a total"
}
next
[ "${1:-}" = "--quick" ] && { echo "== setup: done (--quick: the rest builds with cmake --build --preset default)"; exit 0; }
echo "== setup: build the rest (banklab run, the course site, the bank explorer$( [ -f tests/CMakeLists.txt ] && echo ', the tests'))"
cmake --build --preset default
echo "== setup: done; everything is built"
next
