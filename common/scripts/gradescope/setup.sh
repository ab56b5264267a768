#!/bin/sh
# Gradescope runs this once, when it builds the autograder's image (Ubuntu,
# as root): install what BankLab needs and build the grader. The bundle's
# files are in /autograder/source (make_bundle.sh made the zip).
set -eu
cd "$(dirname "$0")"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q cmake make g++ binutils doctest-dev libboost-context-dev \
  libcli11-dev nlohmann-json3-dev libclang-dev
cmake -S banklab -B banklab/build -DCMAKE_BUILD_TYPE=Release -DBANKLAB_BUILD_TESTS=OFF
cmake --build banklab/build --target grader banksim -j "$(nproc)"
