#!/bin/sh
# Runs on a machine with an NVIDIA GPU and Nsight Compute: builds the two
# probes of this folder and writes their output into OUT (a folder):
#   shared_layout.txt      where nvcc places shared variables
#   shared_atomics_ncu.csv Nsight Compute's counts for one-warp shared atomics
#   ncu_shared_metrics.txt the shared-memory metric names this ncu knows
#   sh common/emulator/probe/measure.sh OUT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
arch=${CUDA_ARCH:-90}
nvcc -O2 -arch=sm_${arch} -o /tmp/shared_layout_probe "$here/shared_layout_probe.cu"
nvcc -O2 -arch=sm_${arch} -o /tmp/shared_atomic_probe "$here/shared_atomic_probe.cu"
/tmp/shared_layout_probe > "$out/shared_layout.txt"
ncu --query-metrics 2>/dev/null | grep -i shared > "$out/ncu_shared_metrics.txt" || true
m=smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum
m=$m,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
ncu --clock-control none --csv --metrics "$m" /tmp/shared_atomic_probe > "$out/shared_atomics_ncu.csv" 2>&1 || true
cuobjdump -sass /tmp/shared_atomic_probe | grep -E "Function|ATOMS|LDS|STS|ATOM" > "$out/shared_atomic_sass.txt" || true
