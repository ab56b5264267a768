#!/usr/bin/env python3
"""The fifth "blind" set of mutants for the mutation check of the emulator's
tests (same format as tests/mutation/emulator_mutations.py: name, file, text,
replacement; `text` occurs exactly once in `file`).

Written blind to the tests. What was read to write them: the sources,
headers, compat headers and README of common/emulator/ (with
src/curand_host.cpp and compat/curand.h), common/bank_model/,
common/banksim/ (main.cpp, README.md), common/cli/ (banklab.cpp,
launch_rewrite.cpp, launch_rewrite.hpp), and tests/mutation/emulator_mutations.py,
tests/mutation/emulator_mutants_blind1.py, tests/mutation/emulator_mutants_blind2.py,
tests/mutation/emulator_mutants_blind3.py and
tests/mutation/emulator_mutants_blind4.py (for their format and to avoid
repeating their mutants: none here is at the same place with the same effect,
and most are at places the earlier sets did not touch). What was NOT read:
anything else under tests/ (no test sources, no test programs, no test data,
no golden files, no other mutation files, not tests/mutation/README.md), and
no git history. Nothing was built or run (the module was only imported, by
the check's --list, to count its texts).

Spread: 6 over the emulator runtime and device functions (a warp reduction,
an atomic, a cooperative-groups scan, half arithmetic, a float intrinsic,
the runtime API's pitched allocation), 4 over textures, surfaces, cuRAND's
host API and cuBLAS, 5 over the tracing of accesses, findings (races,
repeated findings, use after free, the block time limit) and the counts
traced, 3 over the bank model and banksim, 3 over the reports (text, JSON,
the totals of several launches), 3 over `banklab run` (its options, its
source files and launch rewriting)."""

EMU = "common/emulator"
HOST_FUNCS = f"{EMU}/include/banklab/cuda_device_functions.hpp"
BANK_MODEL = "common/bank_model/src/bank_model.cpp"
BANK_REPORT = "common/bank_model/src/bank_report.cpp"
BANK_JSON = "common/bank_model/src/bank_json.cpp"
CLI = "common/cli"

# (name, file, text, replacement)
MUTATIONS = [
    # ---- emulator runtime and device functions (6) ----
    ("__reduce_and_sync computes the OR of the lanes' values instead of their AND (lanes holding 1 and 2 give 3, "
     "not 0)",
     f"{EMU}/src/runtime.cpp",
     "case WarpOp::kAnd: reduced = first ? v : (reduced & v); break;",
     "case WarpOp::kAnd: reduced = first ? v : (reduced | v); break;"),
    ("an int atomicSub adds its value instead of subtracting it (a counter of 10 after atomicSub(&c, 3) is 13, "
     "not 7)",
     f"{EMU}/src/device_functions.cpp",
     "BANKLAB_ATOMIC(int, atomicSub, (int* address, int value), *address = old - value)",
     "BANKLAB_ATOMIC(int, atomicSub, (int* address, int value), *address = old + value)"),
    ("cooperative_groups::exclusive_scan gives the tile's first thread its own value instead of 0",
     f"{EMU}/compat/cooperative_groups.h",
     "return tile.thread_rank() == 0 ? T{} : before;",
     "return tile.thread_rank() == 0 ? inclusive : before;"),
    ("a half operation whose result is NaN (__hadd of +inf and -inf, __hmul of 0 and inf) gives the bits 0x7e00 "
     "instead of the GPU's 0x7fff",
     f"{EMU}/include/banklab/cuda_fp16.hpp",
     "inline half rounded(float f) { return f != f ? from_bits(0x7fffu) : half(f); }",
     "inline half rounded(float f) { return f != f ? from_bits(0x7e00u) : half(f); }"),
    ("min of two float zeros of different signs is +0 whatever their order (min(+0.0f, -0.0f) gives +0, not the "
     "GPU's -0)",
     HOST_FUNCS,
     "  if (a == b) return std::signbit(a) ? a : b;\n  return a < b ? a : b;",
     "  if (a == b) return std::signbit(a) ? b : a;\n  return a < b ? a : b;"),
    ("cudaMallocPitch rounds the pitch up to a multiple of 256 bytes instead of 512 (a 100-byte row gets a pitch "
     "of 256, not 512, as an H200 gives)",
     f"{EMU}/src/host_api.cpp",
     "*pitch = (width_bytes + 511) / 512 * 512;",
     "*pitch = (width_bytes + 255) / 256 * 256;"),

    # ---- textures, surfaces, cuRAND's host API, cuBLAS (4) ----
    ("a normalized texture coordinate is not truncated to 21 fractional bits first: 0.2f on a 5-texel texture "
     "with point sampling reads texel 1 instead of texel 0 (as an H100 reads it)",
     f"{EMU}/src/texture.cpp",
     "double v = std::floor(static_cast<double>(x) * 2097152.0) / 2097152.0;",
     "double v = static_cast<double>(x);"),
    ("a surface write outside its array with cudaBoundaryModeZero is clamped onto the array's edge element "
     "(overwriting it) instead of being dropped",
     f"{EMU}/src/texture.cpp",
     "    if (mode == cudaBoundaryModeZero) {\n",
     "    if (mode == cudaBoundaryModeZero && !write) {\n"),
    ("a second curandGenerate (or curandGenerateUniform, Normal ...) call of one generator repeats the first "
     "call's values instead of going on where it ended",
     f"{EMU}/src/curand_host.cpp",
     "  g->offset += n;\n",
     ""),
    ("cublasSgemmStridedBatched (and the D form) multiplies every batch with the first A matrix, ignoring "
     "stride_a",
     f"{EMU}/src/cublas.cpp",
     "gemm_one(transa, transb, m, n, k, al, a + i * stride_a, lda,",
     "gemm_one(transa, transb, m, n, k, al, a, lda,"),

    # ---- tracing of accesses, findings, time limits (5) ----
    ("a shared write by a thread that read the word last, after other threads read it in the same barrier "
     "interval, is not reported as a race (the other readers are forgotten)",
     f"{EMU}/src/trace.cpp",
     "s.many_readers = s.read_epoch == r.epoch && s.reader != tid;",
     "s.many_readers = false;"),
    ("a finding made again at the same place within a launch (a race by every warp) is counted once: no "
     "'[N times]' and a JSON count of 1",
     f"{EMU}/src/runtime.cpp",
     "    ++f.count;\n    return f;\n",
     "    return f;\n"),
    ("a line's loads are counted as stores and its stores as loads (the loads and stores columns swapped, and a "
     "store line's store_wavefronts 0)",
     f"{EMU}/src/trace.cpp",
     "(instance.write ? stats.stores : stats.loads) += instance.lanes;",
     "(instance.write ? stats.loads : stats.stores) += instance.lanes;"),
    ("a block stopped at the one-block time limit is reported with the launch's limit in its message ('the time "
     "limit of 10.0 s for one block' where the block limit was 1.0 s)",
     f"{EMU}/src/crash.cpp",
     "seconds_text(options.block_time_limit_seconds)",
     "seconds_text(options.time_limit_seconds)"),
    ("a kernel reading global memory that was already cudaFree'd is not told so: the out-of-bounds finding says "
     "'not inside any allocation' or names another allocation instead of 'which was already freed'",
     f"{EMU}/src/global_memory.cpp",
     "  g_arena.freed.push_back(a);\n",
     ""),

    # ---- bank model and banksim (3) ----
    ("banksim --op store (and an access CSV row with op 'store') is refused with exit status 2 instead of being "
     "priced as a store",
     BANK_MODEL,
     "if (text == \"st\" || text == \"store\") return MemOp::kStore;",
     "if (text == \"st\") return MemOp::kStore;"),
    ("banksim's explanation of a 2-way conflict leaves out which bank must deliver which words (only conflicts "
     "of 3 or more wavefronts name their bank)",
     BANK_REPORT,
     "    if (group.wavefronts > 1) {\n      out << \"; bank \"",
     "    if (group.wavefronts > 2) {\n      out << \"; bank \""),
    ("banksim --format json lists every lane of a group as active_lanes, the inactive ones too (--lanes even "
     "shows lanes 1, 3, ... as active)",
     BANK_JSON,
     "{\"active_lanes\", lanes_json(group.active)},",
     "{\"active_lanes\", lanes_json(group.lanes)},"),

    # ---- reports (3) ----
    ("a kernel whose first launch was stopped (an invalid launch, a crash) and a later one completed is reported "
     "as completed: no 'STOPPED EARLY' in the text report, completed true in the JSON",
     f"{EMU}/src/session.cpp",
     "t.completed = (k.launches == 1 || t.completed) && one.completed;",
     "t.completed = one.completed;"),
    ("the text report's kernel line gives the static shared bytes as the dynamic ones ('+ N dynamic' with N the "
     "static size)",
     f"{EMU}/src/report.cpp",
     "\" + \" + std::to_string(report.dynamic_shared_bytes) + \" dynamic\"",
     "\" + \" + std::to_string(report.shared_bytes) + \" dynamic\""),
    ("the JSON report gives every finding a count of 1, even one that happened many times",
     f"{EMU}/src/report_json.cpp",
     "{\"count\", f.count}});",
     "{\"count\", 1}});"),

    # ---- banklab run and its launch rewriting (3) ----
    ("banklab run --verbose is ignored: no line's worst warp instruction nor its bank map is shown",
     f"{CLI}/banklab.cpp",
     "\";verbose=\" << (o.verbose ? 1 : 0)",
     "\";verbose=\" << 0"),
    ("a .cu file after the program's first file (banklab run main.cpp kernels.cu) is passed to the program as "
     "its first argument instead of being built with it (the program does not link)",
     f"{CLI}/banklab.cpp",
     "return ext == \".cu\" || ext == \".cpp\" ||",
     "return ext == \".cpp\" ||"),
    ("cudaLaunchCooperativeKernel((void*)kernel, ...) keeps its cast: the launch fails with "
     "cudaErrorInvalidDeviceFunction (a plain pointer) instead of running the kernel",
     f"{CLI}/launch_rewrite.cpp",
     "for (const char* call : {\"cudaLaunchKernel\", \"cudaLaunchCooperativeKernel\"}) {",
     "for (const char* call : {\"cudaLaunchKernel\"}) {"),
]
