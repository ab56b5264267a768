#!/usr/bin/env python3
"""A "blind" set of mutants for the mutation check of the emulator's tests
(same format as tests/mutation/emulator_mutations.py: name, file, text,
replacement; `text` occurs exactly once in `file`).

Written blind to the tests. What was read to write them: the sources,
headers, compat headers and README of common/emulator/, common/bank_model/,
common/banksim/ (main.cpp, README.md), common/cli/ (banklab.cpp,
launch_rewrite.cpp, launch_rewrite.hpp), and tests/mutation/emulator_mutations.py
(for its format and to avoid repeating its mutants). What was NOT read:
anything else under tests/ (no test sources, no test data, no other mutation
files), and no git history. Nothing was built or run.

Spread: 8 over the emulator runtime and device functions, 4 over textures,
graphs, cuRAND and wmma, 4 over the bank model, 3 over the reports (text,
JSON, CSV), 3 over banksim, 2 over `banklab run`."""

EMU = "common/emulator"
HOST = f"{EMU}/include/banklab/cuda_host.hpp"
BANK = "common/bank_model/src/bank_model.cpp"
BANKSIM = "common/banksim/main.cpp"
CLI = "common/cli"

# (name, file, text, replacement)
MUTATIONS = [
    # ---- emulator runtime and device functions (8) ----
    ("a __shfl_xor_sync with width 16 reads from the next 16-lane segment instead of returning the caller's own value",
     HOST,
     "return banklab_shuffle_as(mask, value, source < (lane / width + 1) * width ? source : lane);",
     "return banklab_shuffle_as(mask, value, source);"),
    ("atomicInc wraps to 0 one step late: the counter reaches limit + 1",
     f"{EMU}/src/device_functions.cpp",
     "*address = old >= limit ? 0u : old + 1u)",
     "*address = old > limit ? 0u : old + 1u)"),
    ("__activemask reports lanes of the warp that have already exited",
     f"{EMU}/src/device_functions.cpp",
     "return (warp.present & ~warp.exited) | warp.activemask_lanes;",
     "return warp.present | warp.activemask_lanes;"),
    ("__match_all_sync says every lane agrees (predicate 1, the whole mask) even when their values differ",
     f"{EMU}/src/runtime.cpp",
     "warp.results[lane] = op == WarpOp::kMatchAny ? same : (same == group ? same : 0);",
     "warp.results[lane] = op == WarpOp::kMatchAny ? same : (same != 0 ? group : 0);"),
    ("a race between two lanes of one warp with no __syncwarp between them is never reported",
     f"{EMU}/src/trace.cpp",
     "rt().warps[self.warp].sync_count > other_sync",
     "rt().warps[self.warp].sync_count >= other_sync"),
    ("a shared float atomicAdd (a CAS loop) counts one warp instruction, not one per pass over the busiest bank",
     f"{EMU}/src/trace.cpp",
     "    if (instance.atomic == AtomicKind::kCasLoop) cost.instructions = static_cast<std::uint64_t>(busiest);\n",
     ""),
    ("extern __shared__ memory is placed at a multiple of 4 bytes after the static variables, not 16",
     f"{EMU}/src/layout.cpp",
     "place(symbols.dynamic, dynamic_bytes, 16, 16);",
     "place(symbols.dynamic, dynamic_bytes, 4, 16);"),
    ("--blocks N traces more than N blocks when N does not divide the grid (e.g. 4 of 10 for N = 3)",
     f"{EMU}/src/runtime.cpp",
     ": (plan.total_blocks + options.trace_blocks - 1) / options.trace_blocks;",
     ": plan.total_blocks / options.trace_blocks;"),

    # ---- textures, graphs, cuRAND, wmma (4) ----
    ("linear texture filtering blends texels floor(x) and floor(x) + 1, not those around x - 0.5: a fetch at a texel's centre mixes in its neighbour",
     f"{EMU}/src/texture.cpp",
     "const double shifted = coordinate[a] - 0.5;",
     "const double shifted = coordinate[a];"),
    ("a 2-D memset graph node ignores the pitch and writes its rows back to back",
     f"{EMU}/src/graph.cpp",
     "char* row = static_cast<char*>(p.dst) + y * p.pitch;",
     "char* row = static_cast<char*>(p.dst) + y * row_bytes;"),
    ("XORWOW skipahead (and curand_init with an offset) leaves the Weyl word behind: values after the skip differ from cuRAND's",
     f"{EMU}/compat/curand_kernel.h",
     "  state->d += static_cast<unsigned int>(n) * 362437u;\n",
     ""),
    ("wmma::mma_sync multiplies A by B transposed",
     f"{EMU}/src/wmma.cpp",
     "sum += ta[at.row][k] * tb[k][at.col];",
     "sum += ta[at.row][k] * tb[at.col][k];"),

    # ---- bank model (4) ----
    ("8- and 16-byte stores whose lane pairs share an address get the load pair-merge (w8_pairs_share_st costs 1, not 2)",
     BANK,
     "if (arch.load_pair_merge && access.op == MemOp::kLoad && access.width_bytes > arch.bank_width_bytes) {",
     "if (arch.load_pair_merge && access.width_bytes > arch.bank_width_bytes) {"),
    ("a lane whose pair partner is inactive blocks the load pair-merge (only lanes 0 and 16 loading one double costs 2, not 1)",
     BANK,
     "if (access.active(t) && access.active(partner) && access.offsets[t] != access.offsets[partner]) {",
     "if (access.active(t) && (!access.active(partner) || access.offsets[t] != access.offsets[partner])) {"),
    ("8- and 16-byte accesses are served as one whole-warp lane group, not half- or quarter-warps (a contiguous LDS.64 shows a conflict)",
     BANK,
     "g.group_lanes = std::min(kWarpSize, arch.wavefront_bytes() / std::max(access.width_bytes, arch.bank_width_bytes));",
     "g.group_lanes = std::min(kWarpSize, arch.wavefront_bytes() / arch.bank_width_bytes);"),
    ("the emulator's wavefront count prices a broadcast as a conflict: lanes reading one word each cost a wavefront",
     BANK,
     "const auto distinct = std::unique(words.begin(), words.begin() + n) - words.begin();",
     "const auto distinct = static_cast<std::ptrdiff_t>(n);"),

    # ---- reports (3) ----
    ("a finding that happened twice is shown without its '[2 times]' count in the text report",
     f"{EMU}/src/report.cpp",
     "if (f.count > 1) out << \" [\" << f.count << \" times]\";",
     "if (f.count > 2) out << \" [\" << f.count << \" times]\";"),
    ("a race finding's JSON other_line repeats the line of the later access instead of the earlier one",
     f"{EMU}/src/report_json.cpp",
     "{\"other_line\", f.other.line},",
     "{\"other_line\", f.where.line},"),
    ("the CSV report's store_instructions and store_wavefronts columns are swapped",
     f"{EMU}/src/session.cpp",
     "l.store_instructions << \",\"\n          << l.store_wavefronts << tail;",
     "l.store_wavefronts << \",\"\n          << l.store_instructions << tail;"),

    # ---- banksim (3) ----
    ("banksim --lanes 0-15 leaves out the range's last lane (and --lanes 5 activates none)",
     BANKSIM,
     "for (int lane = first; lane <= last; ++lane) mask |= LaneMask{1} << lane;",
     "for (int lane = first; lane < last; ++lane) mask |= LaneMask{1} << lane;"),
    ("banksim --batch prints the ideal wavefronts in its bank_conflicts column",
     BANKSIM,
     "std::cout << row.name << ',' << cost.wavefronts << ',' << cost.bank_conflicts << '\\n';",
     "std::cout << row.name << ',' << cost.wavefronts << ',' << cost.ideal_wavefronts << '\\n';"),
    ("banksim accepts --stride together with --offsets (silently pricing the stride) instead of refusing with status 2",
     BANKSIM,
     "  stride_opt->excludes(offsets_opt);\n",
     ""),

    # ---- banklab run (2) ----
    ("a launch whose '(' of arguments is on the line after '>>>' shifts every later reported line of the file up by one",
     f"{CLI}/launch_rewrite.cpp",
     "    for (std::size_t k = close + 3; k < paren; ++k) text += source[k];\n",
     ""),
    ("with --format csv the program's own output is mixed into the CSV report on stdout instead of going to stderr",
     f"{CLI}/banklab.cpp",
     "if (o.format != \"text\") dup2(2, 1);",
     "if (o.format == \"json\") dup2(2, 1);"),
]
