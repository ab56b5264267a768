#!/usr/bin/env python3
"""The third "blind" set of mutants for the mutation check of the emulator's
tests (same format as tests/mutation/emulator_mutations.py: name, file, text,
replacement; `text` occurs exactly once in `file`).

Written blind to the tests. What was read to write them: the sources,
headers, compat headers and README of common/emulator/, common/bank_model/,
common/banksim/ (main.cpp, README.md), common/cli/ (banklab.cpp,
launch_rewrite.cpp, launch_rewrite.hpp), and tests/mutation/emulator_mutations.py,
tests/mutation/emulator_mutants_blind1.py and
tests/mutation/emulator_mutants_blind2.py (for their format and to avoid
repeating their mutants: none here is at the same place with the same effect,
and most are at places the earlier sets did not touch). What was NOT read:
anything else under tests/ (no test sources, no test programs, no test data,
no golden files, no other mutation files, not tests/mutation/README.md), and
no git history. Nothing was built or run (the module was only imported, by
the check's --list, to count its texts).

Spread: 6 over the emulator runtime and device functions (an integer
intrinsic, cooperative groups, address conversion, the launch checks, the
built-in variables, the runtime API's launch call), 4 over textures, graphs,
cuRAND and asynchronous copies, 5 over the tracing of accesses, findings
(races, out-of-bounds, crashes) and time limits, 3 over the bank model and
banksim, 3 over the reports (text, JSON, the totals of several launches),
3 over `banklab run` and its launch rewriting."""

EMU = "common/emulator"
HOST_FUNCS = f"{EMU}/include/banklab/cuda_device_functions.hpp"
BANK_MODEL = "common/bank_model/src/bank_model.cpp"
BANK_REPORT = "common/bank_model/src/bank_report.cpp"
ACCESS_CSV = "common/bank_model/src/access_csv.cpp"
CLI = "common/cli"

# (name, file, text, replacement)
MUTATIONS = [
    # ---- emulator runtime and device functions (6) ----
    ("__funnelshift_lc with a shift of 32 or more wraps the shift modulo 32 instead of clamping it to 32: "
     "a shift of 32 returns hi, not lo",
     HOST_FUNCS,
     "return static_cast<unsigned int>((both << (shift < 32u ? shift : 32u)) >> 32);",
     "return static_cast<unsigned int>((both << (shift & 31u)) >> 32);"),
    ("coalesced_threads().thread_rank() counts the calling lane itself: the first active lane has rank 1, not 0",
     f"{EMU}/compat/cooperative_groups.h",
     "static_cast<unsigned>(__popc(__activemask() & ((1u << (detail::linear_thread() % 32)) - 1u)))",
     "static_cast<unsigned>(__popc(__activemask() & ((2u << (detail::linear_thread() % 32)) - 1u)))"),
    ("__cvta_generic_to_shared of an element inside a shared array gives the array's own offset, not the "
     "element's (&tile[5] of a float array at offset 0 gives 0, not 20)",
     f"{EMU}/src/device_functions.cpp",
     "    if (address - v.address <= v.size) return v.offset + (address - v.address);",
     "    if (address - v.address <= v.size) return v.offset;"),
    ("a launch with blockDim.z above 64 (block (1,1,128), 128 threads) runs instead of being refused as an "
     "invalid launch configuration",
     f"{EMU}/src/runtime.cpp",
     "threads_per_block > kMaxBlockThreads || block.z > 64 ||",
     "threads_per_block > kMaxBlockThreads ||"),
    ("in a block with blockDim.z > 1, threadIdx.y runs on past blockDim.y (thread i gets y = i / blockDim.x) "
     "instead of starting again at 0 in each z slice",
     f"{EMU}/src/runtime.cpp",
     "(static_cast<unsigned>(i) / blockDim.x) % blockDim.y,",
     "static_cast<unsigned>(i) / blockDim.x,"),
    ("cudaLaunchKernel returns cudaSuccess for a launch that failed (an invalid configuration), instead of the "
     "launch's error",
     f"{EMU}/include/banklab/cuda_launch.hpp",
     "  return cudaPeekAtLastError();\n",
     "  return cudaSuccess;\n"),

    # ---- textures, graphs, cuRAND, asynchronous copies (4) ----
    ("with cudaAddressModeMirror and normalized coordinates, coordinates in [0, 1) read the texture backwards "
     "(x = 0.25 on 4 texels, point sampling, reads texel 3, not 1) and [1, 2) forwards",
     f"{EMU}/src/texture.cpp",
     "if (static_cast<long long>(whole) % 2 != 0) v = 1.0 - v;",
     "if (static_cast<long long>(whole) % 2 == 0) v = 1.0 - v;"),
    ("a graph instance runs the ready nodes latest-added first: two independent host or kernel nodes run in "
     "the reverse of the order they were added",
     f"{EMU}/src/graph.cpp",
     "    const CUgraphNode_st* n = ready.begin()->second;\n    ready.erase(ready.begin());\n",
     "    const CUgraphNode_st* n = std::prev(ready.end())->second;\n    ready.erase(std::prev(ready.end()));\n"),
    ("curand_uniform_double of a Philox state adds half a step: (x + 0.5) 2^-32 instead of the H100's "
     "(x + 1) 2^-32, so every Philox uniform double differs in its low bits",
     f"{EMU}/compat/curand_kernel.h",
     "return curand(state) * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE;",
     "return curand(state) * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE / 2.0;"),
    ("a group's or a thread's cuda::memcpy_async / cooperative_groups::memcpy_async of 16-byte aligned data "
     "is copied in 8-byte units: twice the shared store instructions (STS.64, not 16-byte units) and "
     "other wavefronts at the copy's line",
     f"{EMU}/include/banklab/cuda_async_copy.hpp",
     "std::size_t unit = 16;",
     "std::size_t unit = 8;"),

    # ---- tracing of accesses, findings, time limits (5) ----
    ("a shared access just past the end of the last array says '0 bytes past the end of 'tile'' instead of "
     "'the first byte after the end of 'tile'' (and one byte further says 'the first byte after')",
     f"{EMU}/src/trace.cpp",
     "(past == 0 ? std::string(\"the first byte after the end of \")",
     "(past == 1 ? std::string(\"the first byte after the end of \")"),
    ("a shared atomicCAS shows 1 ideal wavefront instead of 2: a conflict-free CAS reports 1 wavefront of "
     "excess (a bank conflict) and every CAS line's ideal column drops",
     f"{EMU}/src/trace.cpp",
     "    cost.count.ideal_wavefronts = 2;\n",
     "    cost.count.ideal_wavefronts = 1;\n"),
    ("a global access to the element just past the end of an allocation (a[n] of a cudaMalloc'd array of n) "
     "is not reported as an out-of-bounds global access",
     f"{EMU}/src/global_memory.cpp",
     "if (address >= a.begin && address + size <= a.begin + a.size) {",
     "if (address >= a.begin && address < a.begin + a.size + size) {"),
    ("an integer division by zero in a kernel kills the whole program with SIGFPE instead of stopping the "
     "launch with a 'kernel crashed: SIGFPE' finding at its line",
     f"{EMU}/src/crash.cpp",
     "constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGTRAP};",
     "constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGALRM, SIGTRAP};"),
    ("the time-limit finding gives the limit with no decimal ('the time limit of 2 s', and 0.5 s as '0 s') "
     "instead of one ('2.0 s', '0.5 s')",
     f"{EMU}/src/crash.cpp",
     "std::snprintf(buffer, sizeof buffer, \"%.1f s\", seconds);",
     "std::snprintf(buffer, sizeof buffer, \"%.0f s\", seconds);"),

    # ---- bank model and banksim (3) ----
    ("the pipeline passes are the wavefronts even where empty lane groups take passes: banksim --width 8 "
     "--stride 1 --lanes 0-7 gives pipeline_passes 1, not 2, and its 'pipeline passes' line disappears",
     BANK_MODEL,
     "cost.pipeline_passes = std::max(cost.wavefronts, static_cast<int>(cost.groups.size()));",
     "cost.pipeline_passes = cost.wavefronts;"),
    ("every occupied cell of the bank map is marked '*' (shared word), even where one lane alone reads the word",
     BANK_REPORT,
     "if (std::popcount(words[k].lanes) > 1) cell += '*';",
     "if (std::popcount(words[k].lanes) > 0) cell += '*';"),
    ("an offset of -1 for an inactive lane is refused (banksim --offsets and --batch rows exit 2) instead of "
     "being read as '-'",
     ACCESS_CSV,
     "(value < 0 && value != kInactive)",
     "value < 0"),

    # ---- reports (3) ----
    ("a race (or a barrier divergence at two lines) in the text report no longer names the other line: "
     "the '(and file:line)' after the first is missing",
     f"{EMU}/src/report.cpp",
     "    if (f.other_pc != 0) out << \" (and \" << f.other.text() << \")\";\n",
     ""),
    ("a kernel launched more than once shows the ideal wavefronts of its first launch only: its ideal column "
     "too low and its excess too high in every report of banklab run",
     f"{EMU}/src/session.cpp",
     "    sum.ideal_wavefronts += l.ideal_wavefronts;\n",
     ""),
    ("banklab run --format json gives every launch as stopped: stopped_launches equals launches even when "
     "none was stopped",
     f"{EMU}/src/session.cpp",
     "one[\"stopped_launches\"] = k.stopped;",
     "one[\"stopped_launches\"] = k.launches;"),

    # ---- banklab run and its launch rewriting (3) ----
    ("banklab run prog.cu -- 512 passes '--' to the program as its first argument (argv[1] is '--', not '512')",
     f"{CLI}/banklab.cpp",
     "    if (arg != rest.end() && *arg == \"--\") ++arg;\n",
     ""),
    ("a launch the rewrite cannot read ('<<<' without its '>>>') is reported one line below its real line",
     f"{CLI}/banklab.cpp",
     "at = std::strtol(l.c_str() + 2, nullptr, 10) - (n + 1) + line;",
     "at = std::strtol(l.c_str() + 2, nullptr, 10) - n + line;"),
    ("a launch whose '(' of arguments is on the line after '>>>' is refused ('not followed by its arguments') "
     "and the program does not build",
     f"{CLI}/launch_rewrite.cpp",
     "source[paren] == '\\t' || source[paren] == '\\n' ||",
     "source[paren] == '\\t' ||"),
]
