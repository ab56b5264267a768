#!/bin/sh
# Gradescope runs this once, when it builds the autograder's image (Ubuntu
# 22.04 or later, as root): install what BankLab needs and build the grader.
# The bundle's files are in /autograder/source (make_bundle.sh made the zip;
# it holds no reference solutions).
set -eu
cd "$(dirname "$0")"
apt-get update -q
# bubblewrap and libseccomp-dev: the sandbox around the student's code.
DEBIAN_FRONTEND=noninteractive apt-get install -y -q cmake make g++ binutils doctest-dev libboost-context-dev \
  libcli11-dev nlohmann-json3-dev libclang-dev bubblewrap libseccomp-dev python3-pip
# The kit needs CMake 3.25 (its presets, version 6, and cmake --workflow);
# Ubuntu 22.04 has 3.22: then CMake from PyPI, which pip puts first on PATH.
version=$(cmake --version | head -1 | sed 's/^[^0-9]*//')
if ! printf '%s\n' "$version" | awk -F. '{ exit !($1 > 3 || ($1 == 3 && $2 >= 25)) }'; then
  python3 -m pip install -q 'cmake>=3.25'
  hash -r
fi
cmake --version | head -1
cmake -S banklab -B banklab/build -DCMAKE_BUILD_TYPE=Release -DBANKLAB_BUILD_TESTS=OFF
cmake --build banklab/build --target grader banksim -j "$(nproc)"
# The confined runners (uid 65534) read the grader's cache and libraries.
chmod -R a+rX banklab/build
