#!/bin/sh
# On a machine with an NVIDIA GPU and Nsight Compute: builds kernels.cu with
# nvcc and writes OUT/ncu.csv, Nsight Compute's instrumented counts of shared
# load and store instructions and wavefronts per kernel, and OUT/sass.txt, the
# shared-memory instructions nvcc emitted (with source lines).
#   sh common/emulator/gpu_compare/measure.sh OUT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
arch=${CUDA_ARCH:-90}
nvcc -O2 -lineinfo -arch=sm_${arch} -o /tmp/banklab_gpu_compare "$here/kernels.cu"
/tmp/banklab_gpu_compare > "$out/program_output.txt"
m=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
m=$m,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
ncu --clock-control none --csv --metrics "$m" /tmp/banklab_gpu_compare > "$out/ncu.csv"
cuobjdump -sass /tmp/banklab_gpu_compare | grep -E "Function|LDS|STS|ATOMS" > "$out/sass.txt" || true
nvcc --version | tail -2 > "$out/versions.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/versions.txt"
