#!/bin/sh
# Nsight Compute's instruction-level shared-memory counters on a program (by
# default tests/cli/programs/as_compiled.cu), per kernel and per SASS
# instruction with its source line (the Source page), and nvcc's SASS of the
# same build. On a GPU machine:
#   sh tests/data/gpu/probes/as_compiled_ncu.sh OUT_DIR [PROGRAM.cu]
# writes OUT_DIR/kernels.csv (kernel, metric, value), OUT_DIR/source_*.csv
# (ncu --page source) and OUT_DIR/NAME.sass (nvdisasm -gi -c), NAME being the
# program's name without .cu.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: as_compiled_ncu.sh OUT_DIR [PROGRAM.cu]}
program=${2:-$here/../../../cli/programs/as_compiled.cu}
name=$(basename "$program" .cu)
mkdir -p "$out"
nvcc -O3 -arch=sm_90 -lineinfo -o "$out/$name" "$program"
nvcc -O3 -arch=sm_90 -lineinfo -cubin -o "$out/$name.cubin" "$program"
nvdisasm -gi -c "$out/$name.cubin" > "$out/$name.sass"
"$out/$name" > "$out/program.txt"
ncu --version > "$out/ncu_version.txt"
ncu --query-metrics --chip gh100 2> /dev/null | grep -E '^smsp__sass_(inst_executed_op_shared|l1tex_data_pipe_lsu_wavefronts_mem_shared)' \
  > "$out/shared_sass_metrics.txt" || true
metrics=$(awk '{print $1 ".sum"}' "$out/shared_sass_metrics.txt" | paste -sd, -)
ncu --csv --metrics "$metrics" "$out/$name" > "$out/kernels_raw.csv" 2> "$out/kernels_raw.err"
python3 - "$out/kernels_raw.csv" > "$out/kernels.csv" <<'EOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 5]
head = rows[0]
k, m, v = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
print("kernel,metric,value")
for r in rows[1:]:
    print(f"{r[k].split('(')[0]},{r[m]},{r[v].replace(',', '')}")
EOF
ncu --section SourceCounters --import-source yes -f -o "$out/source" "$out/$name" > "$out/source_profile.txt" 2>&1
for view in sass cuda,sass cuda; do
  ncu -i "$out/source.ncu-rep" --page source --csv --print-source "$view" > "$out/source_$view.csv" 2> "$out/source_$view.err" || true
done
ls -l "$out"
