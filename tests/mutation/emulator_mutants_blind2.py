#!/usr/bin/env python3
"""The second "blind" set of mutants for the mutation check of the emulator's
tests (same format as tests/mutation/emulator_mutations.py: name, file, text,
replacement; `text` occurs exactly once in `file`).

Written blind to the tests. What was read to write them: the sources,
headers, compat headers and README of common/emulator/, common/bank_model/,
common/banksim/ (main.cpp, README.md), common/cli/ (banklab.cpp,
launch_rewrite.cpp, launch_rewrite.hpp), and tests/mutation/emulator_mutations.py
and tests/mutation/emulator_mutants_blind1.py (for their format and to avoid
repeating their mutants: none here is at the same place with the same effect).
What was NOT read: anything else under tests/ (no test sources, no test
programs, no test data, no golden files, no other mutation files), and no git
history. Nothing was built or run (the module was only imported to count its
texts).

Spread: 8 over the emulator runtime and device functions (atomics, warp
reductions, shuffles, barriers, the launch checks, cooperative groups, integer
intrinsics, half), 4 over textures, graphs, cuRAND and asynchronous copies,
4 over the bank model, 3 over the reports (text, JSON, CSV), 3 over banksim,
2 over `banklab run`."""

EMU = "common/emulator"
HOST = f"{EMU}/include/banklab/cuda_host.hpp"
BANK = "common/bank_model/src/bank_model.cpp"
BANK_REPORT = "common/bank_model/src/bank_report.cpp"
BANKSIM = "common/banksim/main.cpp"
CLI = "common/cli"

# (name, file, text, replacement)
MUTATIONS = [
    # ---- emulator runtime and device functions (8) ----
    ("atomicDec at the limit leaves the value at the limit instead of stepping it down to limit - 1",
     f"{EMU}/src/device_functions.cpp",
     "*address = (old == 0u || old > limit) ? limit : old - 1u)",
     "*address = (old == 0u || old >= limit) ? limit : old - 1u)"),
    ("__reduce_max_sync on unsigned values compares them as signed: values of 2^31 and up lose to small ones",
     HOST,
     "return static_cast<unsigned>(__reduce_max_sync(mask, static_cast<int>(value ^ 0x80000000u))) ^ 0x80000000u;",
     "return static_cast<unsigned>(__reduce_max_sync(mask, static_cast<int>(value)));"),
    ("__shfl_down_sync with a width below 32 lets a segment's lane width - delta read the next segment's first lane "
     "instead of keeping its own value",
     HOST,
     "in_segment + static_cast<int>(delta) < width ? lane + static_cast<int>(delta) : lane",
     "in_segment + static_cast<int>(delta) <= width ? lane + static_cast<int>(delta) : lane"),
    ("a launch with 1024 threads per block is refused as an invalid launch configuration",
     f"{EMU}/src/runtime.cpp",
     "threads_per_block == 0 || threads_per_block > kMaxBlockThreads",
     "threads_per_block == 0 || threads_per_block >= kMaxBlockThreads"),
    ("cooperative_groups::inclusive_scan skips the partner exactly `offset` ranks back: rank 1 does not add rank 0's value",
     f"{EMU}/compat/cooperative_groups.h",
     "if (tile.thread_rank() >= offset) value = op(value, other);",
     "if (tile.thread_rank() > offset) value = op(value, other);"),
    ("__byte_perm selectors 4 to 7 pick bytes of x instead of bytes of y",
     f"{EMU}/include/banklab/cuda_device_functions.hpp",
     "const unsigned int selector = (s >> (4 * i)) & 7u;",
     "const unsigned int selector = (s >> (4 * i)) & 3u;"),
    ("__high2float returns the low half of a half2",
     f"{EMU}/include/banklab/cuda_fp16.hpp",
     "inline float __high2float(half2 h) { return static_cast<float>(h.y); }",
     "inline float __high2float(half2 h) { return static_cast<float>(h.x); }"),
    ("__syncthreads_count returns the number of threads at the barrier, not the number whose predicate is non-zero",
     f"{EMU}/src/device_functions.cpp",
     "return self != nullptr ? self->barrier_result : predicate != 0;",
     "return self != nullptr ? self->barrier_arrived : predicate != 0;"),

    # ---- textures, graphs, cuRAND, asynchronous copies (4) ----
    ("a normalized-float read of an 8-bit unsigned texture divides by 256: texel 255 reads 0.996, not 1.0",
     f"{EMU}/src/texture.cpp",
     "const double range = bits == 8 ? (is_signed ? 127.0 : 255.0) : (is_signed ? 32767.0 : 65535.0);",
     "const double range = bits == 8 ? (is_signed ? 127.0 : 256.0) : (is_signed ? 32767.0 : 65535.0);"),
    ("cudaGraphKernelNodeSetParams is ignored by the graph: an instance made after it still launches the old "
     "kernel with the old arguments and shape",
     f"{EMU}/src/graph.cpp",
     "  node->step = std::move(step);\n  node->kernel = *params;\n",
     "  node->kernel = *params;\n"),
    ("curand_normal repeats each value once: the second normal of a Box-Muller pair is the first again",
     f"{EMU}/compat/curand_kernel.h",
     "state->boxmuller_extra = v.y;",
     "state->boxmuller_extra = v.x;"),
    ("an asynchronous copy's shared write is priced with its lanes on consecutive words, not on words of one bank: "
     "lanes copying into one word cost 1 wavefront, not 32, and a contiguous 4-byte copy shows a 2-way conflict",
     f"{EMU}/src/trace.cpp",
     "if (unmerged.offsets[lane] >= 0) unmerged.offsets[lane] += 128 * lane;",
     "if (unmerged.offsets[lane] >= 0) unmerged.offsets[lane] += 4 * lane;"),

    # ---- bank model (4) ----
    ("a lane group with no active lane counts as an ideal wavefront: 8-byte loads of lanes 0-15 show ideal 2 and "
     "-1 bank conflicts",
     BANK,
     "    if (group.active != 0) ++cost.ideal_wavefronts;\n",
     "    ++cost.ideal_wavefronts;\n"),
    ("a group's worst bank is the highest of the tied banks, not the lowest (a conflict-free access names bank 31)",
     BANK,
     "if (bank_words[bank].size() > bank_words[worst].size()) worst = bank;",
     "if (bank_words[bank].size() >= bank_words[worst].size()) worst = bank;"),
    ("--stride counts bytes, not elements of the access width (banksim --width 4 --stride 1 is refused as misaligned)",
     BANK,
     "offsets[lane] = (lanes >> lane & 1u) ? base_bytes + lane * stride_elements * width_bytes : kInactive;",
     "offsets[lane] = (lanes >> lane & 1u) ? base_bytes + lane * stride_elements : kInactive;"),
    ("two neighbouring lanes are written as a range in the explanation's lane lists ('0-1', not '0 1')",
     BANK_REPORT,
     "if (end - lane >= 2) {",
     "if (end - lane >= 1) {"),

    # ---- reports (3) ----
    ("the text report of a kernel whose every block was traced says 'N of them traced (--blocks)' instead of 'all traced'",
     f"{EMU}/src/session.cpp",
     "} else if (k.total.blocks_traced < k.total.blocks_run) {",
     "} else if (k.total.blocks_traced <= k.total.blocks_run) {"),
    ("the JSON report's dynamic_shared_bytes gives the static shared memory instead of the dynamic",
     f"{EMU}/src/report_json.cpp",
     "{\"dynamic_shared_bytes\", report.dynamic_shared_bytes},",
     "{\"dynamic_shared_bytes\", report.shared_bytes},"),
    ("the CSV report leaves a kernel name with a comma ('scale(float*, float)') unquoted, shifting its row's columns",
     f"{EMU}/src/session.cpp",
     "if (text.find_first_of(\",\\\"\\r\\n\") == std::string::npos) return text;",
     "if (text.find_first_of(\"\\\"\\r\\n\") == std::string::npos) return text;"),

    # ---- banksim (3) ----
    ("banksim --lanes even activates the odd lanes",
     BANKSIM,
     "if (text == \"even\") return 0x55555555u;",
     "if (text == \"even\") return 0xaaaaaaaau;"),
    ("banksim with neither --stride nor --offsets (nor --batch) exits with status 1 instead of 2",
     BANKSIM,
     "(or --batch FILE); see banksim --help\\n\";\n      return 2;",
     "(or --batch FILE); see banksim --help\\n\";\n      return 1;"),
    ("banksim --batch names its third column 'conflicts' instead of 'bank_conflicts' in the CSV header",
     BANKSIM,
     "std::cout << \"name,wavefronts,bank_conflicts\\n\";",
     "std::cout << \"name,wavefronts,conflicts\\n\";"),

    # ---- banklab run (2) ----
    ("banklab run exits with the program's status (0), not 124, when exactly one launch was stopped at the time limit",
     f"{CLI}/banklab.cpp",
     "if (status_value(\"stopped\") > 0) {",
     "if (status_value(\"stopped\") > 1) {"),
    ("banklab run exits with the bare signal number (6 for an abort) instead of 128 + signal when the program is "
     "killed by a signal",
     f"{CLI}/banklab.cpp",
     "return 128 + WTERMSIG(status);",
     "return WTERMSIG(status);"),
]
