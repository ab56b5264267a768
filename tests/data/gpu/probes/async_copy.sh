#!/bin/sh
# Runs async_copy.cu on the GPU under Nsight Compute and keeps, in $OUT (or
# the current folder): the program's launch list, the SASS of every kernel
# (the copy instructions nvcc made), the ncu metrics that name LDGSTS or
# shared memory, and the counts of every launch (CSV).
set -e
out=${OUT:-.}
here=$(dirname "$0")
nvcc -arch=sm_90 -O2 -lineinfo -o "$out/async_copy" "$here/async_copy.cu"
"$out/async_copy" > "$out/async_copy.launches.txt"
cuobjdump -sass "$out/async_copy" > "$out/async_copy.sass"
ncu --query-metrics --chip gh100 2>&1 | grep -i -E "ldgsts|shared|ublkcp|bulk" > "$out/async_copy.metrics.txt" || true
m=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
m=$m,smsp__inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
m=$m,sm__sass_data_bytes_mem_shared_op_ldgsts.sum
ncu --csv --metrics "$m" "$out/async_copy" > "$out/async_copy.ncu.csv" 2> "$out/async_copy.ncu.err" || true
"$out/async_copy" time > "$out/async_copy.timing.txt"
rm -f "$out/async_copy"
