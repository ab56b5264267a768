#!/usr/bin/env python3
"""The table of tests/data/gpu/h100_async_copy/README.md from the probe's
files: per launch, Nsight Compute's LDGSTS instructions, the shared
wavefronts of all kinds (l1tex__data_pipe_lsu_wavefronts_mem_shared), those
of the plain loads and stores (smsp__sass_..._op_ld/_op_st), and what is
left for the copy once the never-run `@!PT LDS` of each warp (3 per warp
where the kernel has LDGSTS) are taken off.
Usage: async_copy_table.py FOLDER (holding async_copy.ncu.csv and async_copy.launches.txt)"""
import csv
import pathlib
import sys

folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
rows = list(csv.reader(open(folder / "async_copy.ncu.csv")))
header = next(r for r in rows if r and r[0] == "ID")
data = {}
for r in rows:
    if len(r) != len(header) or not r[0].isdigit():
        continue
    d = dict(zip(header, r))
    entry = data.setdefault(int(d["ID"]), {"block": d["Block Size"]})
    entry[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
launches = [line.split(": ", 1)[1].strip() for line in open(folder / "async_copy.launches.txt") if line.startswith("launch")]
print(f"{'launch':<100} {'LDGSTS':>6} {'all wf':>6} {'LDS wf':>6} {'STS wf':>6} {'copy wf':>7}")
for i, (key, m) in enumerate(sorted(data.items())):
    ldgsts = int(m.get("smsp__sass_inst_executed_op_ldgsts.sum", 0))
    total = int(m["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"])
    lds = int(m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"])
    sts = int(m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"])
    warps = (eval(m["block"].replace("(", "").replace(")", "").replace(", ", "*")) + 31) // 32
    copy = total - lds - sts - (3 * warps if ldgsts else 0)
    print(f"{launches[i] if i < len(launches) else key:<100} {ldgsts:>6} {total:>6} {lds:>6} {sts:>6} {copy:>7}")
