#!/usr/bin/env python3
"""Puts Nsight Compute's counts (an H200 run of kernels.cu, h200/ncu.csv) next
to the emulator's (`banklab run --format json kernels.cu`) per kernel and
prints a Markdown table.

    python3 common/emulator/gpu_compare/compare.py [--as-compiled] BANKLAB [NCU_CSV]

BANKLAB is the banklab executable (build/common/cli/banklab). With
--as-compiled the emulator's column is `banklab run --as-compiled`'s pricing
of nvcc's code (its instructions less the predicated-off warps, which these
kernel-level counters leave out), with shared atomics in their own column."""
import collections
import csv
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
METRICS = {
    "smsp__sass_inst_executed_op_shared_ld.sum": "ld_inst",
    "smsp__sass_inst_executed_op_shared_st.sum": "st_inst",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "ld_wf",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "st_wf",
    "smsp__sass_inst_executed_op_shared_atom.sum": "atom_inst",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": "atom_wf",
}


def gpu_counts(path):
    rows = list(csv.reader(l for l in open(path) if l.startswith('"')))
    col = {h: i for i, h in enumerate(rows[0])}
    out = collections.OrderedDict()
    for r in rows[1:]:
        name = r[col["Kernel Name"]].split("(")[0].replace("void ", "")
        value = float(r[col["Metric Value"]].replace(",", "") or 0)
        out.setdefault(name, {})[METRICS[r[col["Metric Name"]]]] = int(value)
    return out


def emulator_counts(banklab, as_compiled):
    command = [banklab, "run", "--format", "json"] + (["--as-compiled"] if as_compiled else []) + [str(HERE / "kernels.cu")]
    report = json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout)
    if as_compiled and not report.get("as_compiled"):
        sys.exit("compare.py: banklab did not price nvcc's code: " + report.get("nvcc_not_compared_because", "?"))
    out = {}
    for k in report["kernels"]:
        name = k["kernel"].split("(")[0].replace("void ", "")
        if as_compiled:
            lines = k["as_compiled"]["lines"]
            out[name] = {key: sum(l[field] for l in lines) - sum(l["predicated_off_warps"][off] for l in lines if off)
                         for key, field, off in (("ld_inst", "load_instructions", "loads"),
                                                 ("st_inst", "store_instructions", "stores"),
                                                 ("ld_wf", "load_wavefronts", None),
                                                 ("st_wf", "store_wavefronts", None),
                                                 ("atom_inst", "atomic_instructions", None),
                                                 ("atom_wf", "atomic_wavefronts", None))}
            continue
        st_inst = sum(l["store_instructions"] for l in k["lines"])
        st_wf = sum(l["store_wavefronts"] for l in k["lines"])
        out[name] = {"ld_inst": sum(l["warp_instructions"] for l in k["lines"]) - st_inst,
                     "st_inst": st_inst,
                     "ld_wf": sum(l["wavefronts"] for l in k["lines"]) - st_wf,
                     "st_wf": st_wf}
    return out


def main():
    args = sys.argv[1:]
    as_compiled = "--as-compiled" in args
    args = [a for a in args if a != "--as-compiled"]
    banklab = args[0]
    gpu = gpu_counts(args[1] if len(args) > 1 else HERE / "h200" / "ncu.csv")
    emu = emulator_counts(banklab, as_compiled)
    print("| kernel | ld instr GPU / emu | st instr GPU / emu | ld wavefronts GPU / emu | st wavefronts GPU / emu "
          "| " + ("atomics (instr, wf) GPU / emu" if as_compiled else "GPU atomics (instr, wf)") + " | equal |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    equal = 0
    for name, g in gpu.items():
        e = emu.get(name, {})
        # The emulator's source view counts a shared atomic as a store of its
        # width; --as-compiled counts atomics apart, as the GPU does.
        if as_compiled:
            g_st_inst, g_st_wf = g["st_inst"], g["st_wf"]
            e = dict(e, st_inst=e.get("st_inst"), st_wf=e.get("st_wf"))
        else:
            g_st_inst = g["st_inst"] + g.get("atom_inst", 0)
            g_st_wf = g["st_wf"] + g.get("atom_wf", 0)
        same = (g["ld_inst"], g_st_inst, g["ld_wf"], g_st_wf) == (e.get("ld_inst"), e.get("st_inst"), e.get("ld_wf"),
                                                                    e.get("st_wf"))
        cell = lambda a, b: f"{a} / {b}" if a == b else f"**{a} / {b}**"
        atomics = f"{g.get('atom_inst', 0)}, {g.get('atom_wf', 0)}"
        if as_compiled:
            mine = f"{e.get('atom_inst')}, {e.get('atom_wf')}"
            same = same and atomics == mine
            atomics = cell(atomics, mine)
        equal += same
        print(f"| {name} | {cell(g['ld_inst'], e.get('ld_inst'))} | {cell(g_st_inst, e.get('st_inst'))} | "
              f"{cell(g['ld_wf'], e.get('ld_wf'))} | {cell(g_st_wf, e.get('st_wf'))} | "
              f"{atomics} | {'yes' if same else 'no'} |")
    print(f"\n{equal} of {len(gpu)} kernels: every count equal.")


if __name__ == "__main__":
    main()
