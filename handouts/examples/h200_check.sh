#!/usr/bin/env bash
# The handouts' worked examples on a GPU: each built with nvcc, run (its own
# check prints "right"), then profiled with Nsight Compute's instrumented
# shared-memory counters, per kernel: warp instructions and wavefronts of
# shared loads and stores (compare with `banklab run`'s per-line tables, which
# the handouts show). Usage, on a machine with an NVIDIA GPU:
#   handouts/examples/h200_check.sh [OUT_DIR]    (prints the table)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$(mktemp -d)}"
metrics=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -1
for source in "$here"/*.cu; do
  name="$(basename "$source" .cu)"
  nvcc -O3 -arch=sm_90 -lineinfo -o "$out/$name" "$source"
  echo "== $name: $("$out/$name" | tail -1)"
  ncu --metrics "$metrics" --csv "$out/$name" > "$out/$name.csv" 2>/dev/null
  awk -F'","' 'NR > 1 && NF > 5 && $5 != "Kernel Name" { k = $5; sub(/\(.*/, "", k); val = $NF; gsub(/"/, "", val); v[k, $(NF-2)] = val;
                                   if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
      END { printf "  %-28s %10s %12s %10s %12s\n", "kernel", "ld instr", "ld wavefr", "st instr", "st wavefr";
            for (i = 1; i <= n; ++i) { k = order[i];
              printf "  %-28s %10s %12s %10s %12s\n", k, v[k, "smsp__sass_inst_executed_op_shared_ld.sum"],
                v[k, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"],
                v[k, "smsp__sass_inst_executed_op_shared_st.sum"],
                v[k, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] } }' "$out/$name.csv"
done
