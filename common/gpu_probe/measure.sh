#!/bin/sh
# Measures access patterns on a GPU with Nsight Compute:
#   measure.sh BANK_PROBE PATTERNS.csv OUT.csv
# BANK_PROBE is the built bank_probe; PATTERNS.csv has rows
# name,width_bytes,op,lane_byte_offsets. OUT.csv gets each row with the
# measured wavefronts and bank conflicts appended (the format of
# tests/data/h200_shared_access.csv). Needs ncu and python3.
set -eu
[ $# -eq 3 ] || { echo "usage: measure.sh BANK_PROBE PATTERNS.csv OUT.csv" >&2; exit 2; }
probe=$1 patterns=$2 out=$3
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
ncu --clock-control none --csv --metrics "$metrics" -k regex:probe_access "$probe" "$patterns" > "$raw"
python3 - "$patterns" "$raw" "$out" <<'PY'
import csv, sys
patterns_path, raw_path, out_path = sys.argv[1:]
with open(patterns_path) as f:
    rows = [r for r in csv.reader(f) if r and r[0] != "name"]
# ncu's CSV: one line per (launch, metric); launches numbered by "ID" in order.
with open(raw_path) as f:
    table = list(csv.reader(line for line in f if line.startswith('"')))
head = {name: i for i, name in enumerate(table[0])}
values = {}
for r in table[1:]:
    values.setdefault(int(r[head["ID"]]), {})[r[head["Metric Name"]]] = r[head["Metric Value"]].replace(",", "")
if len(values) != len(rows):
    sys.exit(f"measure.sh: {len(values)} profiled launches for {len(rows)} patterns")
with open(out_path, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["name", "width_bytes", "op", "lane_byte_offsets", "wavefronts", "bank_conflicts"])
    for launch, r in zip(sorted(values), rows):
        op, m = r[2], values[launch]
        w.writerow(r[:4] + [m[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"],
                            m[f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"]])
print(f"measure.sh: wrote {len(rows)} rows to {out_path}")
PY
