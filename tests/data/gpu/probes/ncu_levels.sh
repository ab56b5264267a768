#!/bin/sh
# Nsight Compute's kernel-level (l1tex__data_*) and instruction-level
# (smsp__sass_*) shared-memory counters on ncu_levels.cu, RUNS times each
# (default 5), as CSV rows: run, kernel, metric, value. On a GPU machine:
#   sh tests/data/gpu/probes/ncu_levels.sh OUT_DIR [RUNS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: ncu_levels.sh OUT_DIR [RUNS]}
runs=${2:-5}
mkdir -p "$out"
nvcc -O3 -arch=sm_90 -lineinfo -o "$out/ncu_levels" "$here/ncu_levels.cu"
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics=$metrics,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
echo "run,kernel,metric,value" > "$out/ncu_levels.csv"
i=1
while [ "$i" -le "$runs" ]; do
  ncu --csv --metrics "$metrics" "$out/ncu_levels" > "$out/raw_$i.csv" 2> "$out/raw_$i.err"
  # ncu's CSV: "ID","Process ID","Process Name","Host Name","Kernel Name",...,"Metric Name","Metric Unit","Metric Value"
  python3 - "$out/raw_$i.csv" "$i" >> "$out/ncu_levels.csv" <<'EOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
head = rows[0]
k, m, v = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
for r in rows[1:]:
    print(f"{sys.argv[2]},{r[k].split('(')[0]},{r[m]},{r[v].replace(',', '')}")
EOF
  i=$((i + 1))
done
cat "$out/ncu_levels.csv"
