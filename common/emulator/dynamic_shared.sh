#!/bin/sh
# Dynamic shared memory for the CPU emulator. Every `extern __shared__ T name[]`
# of a CUDA program names the same block, sized at launch; compiled for the
# emulator it is an undefined thread-local symbol of the kernel objects. This
# writes OUT.cpp, which defines each such name at one block of the largest
# size a GPU block may have (227 KiB on an H200), with a guard page after it,
# under the name the runtime looks for (banklab_dynamic_shared), and an empty
# TLS init function for each.
#   sh dynamic_shared.sh OUT.cpp OBJECT...
set -eu
out=$1
shift
# Undefined TLS symbols, leaving out the C++ library's (std::, reserved names)
# and CUDA's built-in variables (the runtime defines them, one set per OS thread).
names=$(readelf -sW "$@" | awk '$4 == "TLS" && $7 == "UND" { print $8 }' |
  grep -v -E '^(_ZSt|_ZNSt|_ZGVZ|__|threadIdx$|blockIdx$|blockDim$|gridDim$)' | sort -u)
{
  echo "// Written by common/emulator/dynamic_shared.sh: the dynamic shared memory block."
  if [ -n "$names" ]; then
    echo 'asm(R"(	.section .tbss,"awT",@nobits'
    echo '	.p2align 4'
    for name in banklab_dynamic_shared $names; do
      printf '\t.globl %s\n\t.type %s, @object\n\t.size %s, 232448\n%s:\n' "$name" "$name" "$name" "$name"
    done
    echo '	.zero 236544'
    echo '	.previous'
    # The TLS init function of each name: g++ calls it directly from a
    # template kernel (not through a null check of the weak reference), so
    # an undefined one is a jump to address 0. The block needs no init.
    echo '	.text'
    for name in $names; do
      case $name in
        _Z*) init="_ZTH${name#_Z}" ;;
        *) init="_ZTH${#name}${name}" ;;
      esac
      printf '\t.weak %s\n\t.type %s, @function\n%s:\n\tret\n' "$init" "$init" "$init"
    done
    echo '	.previous)");'
  fi
} > "$out.tmp"
# Only touch OUT when it changes (no needless rebuilds).
if cmp -s "$out.tmp" "$out" 2>/dev/null; then rm -f "$out.tmp"; else mv "$out.tmp" "$out"; fi
