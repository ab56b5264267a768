#!/bin/sh
# Runs wmma_probe.cu on the GPU under Nsight Compute and keeps, in $OUT (or
# the current folder): the launch list, the SASS of every kernel (LDSM, LDS,
# STS and their widths) and the shared-memory counts of every launch (CSV).
set -e
out=${OUT:-.}
here=$(dirname "$0")
nvcc -arch=sm_90 -O2 -lineinfo -o "$out/wmma_probe" "$here/wmma_probe.cu"
"$out/wmma_probe" > "$out/wmma_probe.launches.txt"
cuobjdump -sass "$out/wmma_probe" | grep -E "Function|LDSM|LDS|STS|HMMA" > "$out/wmma_probe.sass"
m=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
ncu --csv --metrics "$m" "$out/wmma_probe" > "$out/wmma_probe.ncu.csv" 2> "$out/wmma_probe.ncu.err" || true
# The metrics that name LDSM, if this ncu has them (apart: an unknown metric fails the whole run).
ncu --query-metrics --chip gh100 2>&1 | grep -i "ldsm" > "$out/wmma_probe.metrics.txt" || true
ldsm=$(sed -n 's/^\([a-z_0-9]*ldsm[a-z_0-9]*\) .*/\1.sum/p' "$out/wmma_probe.metrics.txt" | paste -sd, -)
[ -z "$ldsm" ] || ncu --csv --metrics "$ldsm" "$out/wmma_probe" > "$out/wmma_probe.ldsm.csv" 2>&1 || true
rm -f "$out/wmma_probe"
