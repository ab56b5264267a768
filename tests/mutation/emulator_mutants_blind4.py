#!/usr/bin/env python3
"""The fourth "blind" set of mutants for the mutation check of the emulator's
tests (same format as tests/mutation/emulator_mutations.py: name, file, text,
replacement; `text` occurs exactly once in `file`).

Written blind to the tests. What was read to write them: the sources,
headers, compat headers and README of common/emulator/, common/bank_model/,
common/banksim/ (main.cpp, README.md), common/cli/ (banklab.cpp,
launch_rewrite.cpp, launch_rewrite.hpp), and tests/mutation/emulator_mutations.py,
tests/mutation/emulator_mutants_blind1.py, tests/mutation/emulator_mutants_blind2.py
and tests/mutation/emulator_mutants_blind3.py (for their format and to avoid
repeating their mutants: none here is at the same place with the same effect,
and most are at places the earlier sets did not touch). What was NOT read:
anything else under tests/ (no test sources, no test programs, no test data,
no golden files, no other mutation files, not tests/mutation/README.md), and
no git history. Nothing was built or run (the module was only imported, by
the check's --list, to count its texts).

Spread: 6 over the emulator runtime and device functions (a shuffle, a warp
reduction, an atomic, a cooperative-groups tile vote, half arithmetic, the
runtime API's error state), 4 over textures, graphs, cuRAND and cuBLAS,
5 over the tracing of accesses, findings (races, misaligned accesses,
barrier divergence, out-of-bounds crashes) and time limits, 3 over the bank
model and banksim, 3 over the reports (text, CSV, the totals of several
launches), 3 over `banklab run` (its options, libraries and launch
rewriting)."""

EMU = "common/emulator"
HOST = f"{EMU}/include/banklab/cuda_host.hpp"
BANK_MODEL = "common/bank_model/src/bank_model.cpp"
BANK_JSON = "common/bank_model/src/bank_json.cpp"
ACCESS_CSV = "common/bank_model/src/access_csv.cpp"
CLI = "common/cli"

# (name, file, text, replacement)
MUTATIONS = [
    # ---- emulator runtime and device functions (6) ----
    ("__shfl_sync with a width below 32 reads from the warp's first segment: with width 16, lane 20 reading "
     "source 0 gets lane 0's value, not lane 16's",
     HOST,
     "return banklab_shuffle_as(mask, value, (lane / width) * width + (source & (width - 1)));",
     "return banklab_shuffle_as(mask, value, (lane / 32) * width + (source & (width - 1)));"),
    ("__reduce_xor_sync computes the OR of the lanes' values instead of their XOR (two lanes holding 1 give 1, "
     "not 0)",
     f"{EMU}/src/runtime.cpp",
     "case WarpOp::kXor: reduced = first ? v : (reduced ^ v); break;",
     "case WarpOp::kXor: reduced = first ? v : (reduced | v); break;"),
    ("an int atomicCAS writes the new value when the old one differs from `compare` and leaves it when they are "
     "equal (a spin lock taken with atomicCAS(&lock, 0, 1) is never set)",
     f"{EMU}/src/device_functions.cpp",
     "(int* address, int compare, int value), *address = old == compare ? value : old)",
     "(int* address, int compare, int value), *address = old != compare ? value : old)"),
    ("thread_block_tile<Size>::ballot of a tile below 32 threads is not shifted down to the tile: the second "
     "16-thread tile's ballot has its bits at 16-31, not 0-15",
     f"{EMU}/compat/cooperative_groups.h",
     "return (__ballot_sync(mask_, predicate) & mask_) >> (Size == 32 ? 0 : (detail::linear_thread() % 32) / Size * Size);",
     "return (__ballot_sync(mask_, predicate) & mask_) >> (Size == 32 ? 0 : (detail::linear_thread() % 32) / 32 * Size);"),
    ("__hfma (and __hfma2) computes a * b - c instead of a * b + c",
     f"{EMU}/include/banklab/cuda_fp16.hpp",
     "static_cast<float>(b) + static_cast<float>(c);",
     "static_cast<float>(b) - static_cast<float>(c);"),
    ("cudaGetLastError does not reset the error: after a failed launch every later cudaGetLastError returns the "
     "error again instead of cudaSuccess",
     f"{EMU}/src/host_api.cpp",
     "  banklab::emu::detail::g_last_error = status();\n",
     "  banklab::emu::detail::g_last_error = error;\n"),

    # ---- textures, graphs, cuRAND, cuBLAS (4) ----
    ("a texture with cudaAddressModeBorder gives the edge texel (clamped) for a fetch outside it instead of the "
     "border color",
     f"{EMU}/src/texture.cpp",
     "  if (mode == cudaAddressModeBorder) return -1;\n",
     "  if (mode == cudaAddressModeBorder) return std::clamp(i, 0LL, n - 1);\n"),
    ("a graph whose dependencies form a cycle is instantiated (cudaSuccess, the nodes of the cycle left out) "
     "instead of being refused with cudaErrorInvalidValue",
     f"{EMU}/src/graph.cpp",
     "  return order.size() == graph.nodes.size();\n",
     "  return true;\n"),
    ("curand_init of an MRG32k3a state with a seed other than 0 multiplies the second word of the second "
     "recurrence by the seed's high word instead of its low word: every value after it differs from cuRAND's",
     f"{EMU}/compat/curand_kernel.h",
     "    state->s2[1] = static_cast<unsigned int>(x1 * state->s2[1] % m2);\n",
     "    state->s2[1] = static_cast<unsigned int>(x2 * state->s2[1] % m2);\n"),
    ("cublasIsamax/Idamax/Isamin/Idamin return a 0-based index (the first element gives 0, not 1)",
     f"{EMU}/src/cublas.cpp",
     "      best += 1;\n",
     ""),

    # ---- tracing of accesses, findings, time limits (5) ----
    ("two threads' atomics on the same shared word (an atomicAdd histogram) are reported as a shared-memory race",
     f"{EMU}/src/trace.cpp",
     "s.writer != tid && !(atomic && s.atomic_write) &&",
     "s.writer != tid &&"),
    ("an 8-byte access (a float2 cast) through a shared array declared as float is not reported as a "
     "misaligned shared access (only 16-byte ones are)",
     f"{EMU}/src/trace.cpp",
     "  if (size >= 8) {\n    for (const SharedVar& v : r.vars) {",
     "  if (size >= 16) {\n    for (const SharedVar& v : r.vars) {"),
    ("a __syncthreads() that some threads reach after others of the block returned early is not reported as a "
     "barrier divergence",
     f"{EMU}/src/runtime.cpp",
     "      if (exited > 0 || at_barrier.size() > 1) {",
     "      if (at_barrier.size() > 1) {"),
    ("a global access far outside every allocation (that faults) is reported as a plain crash instead of an "
     "out-of-bounds global access (and the program gets cudaErrorLaunchFailure, not cudaErrorIllegalAddress)",
     f"{EMU}/src/crash.cpp",
     "      kind = FindingKind::kGlobalOutOfBounds;\n",
     "      kind = FindingKind::kCrash;\n"),
    ("a launch stopped at the launch's time limit is reported as a block that ran past the time limit for one "
     "block, and a block stopped by the block limit as the launch's time limit",
     f"{EMU}/src/crash.cpp",
     "info->si_value.sival_int == kBlockTimer;",
     "info->si_value.sival_int != kBlockTimer;"),

    # ---- bank model and banksim (3) ----
    ("an 8- or 16-byte access at an offset that is a multiple of 4 but not of its width is accepted (banksim "
     "--width 8 with an offset of 4 prices it) instead of being refused with exit status 2",
     BANK_MODEL,
     "    if (offset % width_bytes != 0) {",
     "    if (offset % std::min(width_bytes, 4) != 0) {"),
    ("banksim --format json gives the wavefronts as ideal_wavefronts (a conflicted access shows ideal equal to "
     "its wavefronts)",
     BANK_JSON,
     "{\"ideal_wavefronts\", cost.ideal_wavefronts},",
     "{\"ideal_wavefronts\", cost.wavefronts},"),
    ("an access CSV that starts with its 'name,width_bytes,...' header is refused (the header read as a data "
     "row: banksim --batch exits 2 on line 1)",
     ACCESS_CSV,
     "if (trim(line).starts_with(\"name,\")) continue;",
     "if (trim(line).starts_with(\"name;\")) continue;"),

    # ---- reports (3) ----
    ("a kernel launched with two different grids or blocks does not list its shapes in the text report "
     "('launched with 2 shapes' is missing; only three or more are listed)",
     f"{EMU}/src/session.cpp",
     "    if (k.geometries.size() > 1) {",
     "    if (k.geometries.size() > 2) {"),
    ("a finding made by every launch of a kernel is counted as in one launch: a race in each of 3 launches shows "
     "no '[3 times]' in the report of banklab run",
     f"{EMU}/src/session.cpp",
     "      t.findings[found->second].count += f.count;\n",
     "      t.findings[found->second].count = std::max(t.findings[found->second].count, f.count);\n"),
    ("banklab run --format csv leaves out a kernel that made no shared access (it has no row at all)",
     f"{EMU}/src/session.cpp",
     "    if (k.total.lines.empty()) out << kernel << \",,,0,0,0,0,0,0,0,0,0\" << tail;\n",
     ""),

    # ---- banklab run and its launch rewriting (3) ----
    ("banklab run --kernel NAME is ignored: every kernel is traced and none is reported 'not traced (--kernel)'",
     f"{CLI}/banklab.cpp",
     "  if (!o.kernel.empty()) settings << \";kernel=\" << o.kernel;\n",
     ""),
    ("banklab run -lcurand passes -lcurand to the linker instead of dropping it: a program using cuRAND's "
     "device API does not link",
     f"{CLI}/banklab.cpp",
     "{\"cudart\", \"cudart_static\", \"cuda\", \"cudadevrt\", \"curand\"}",
     "{\"cudart\", \"cudart_static\", \"cuda\", \"cudadevrt\"}"),
    ("a reinterpret_cast<void*>(kernel) given to cudaLaunchKernel or a graph node's func is kept: the launch "
     "fails with cudaErrorInvalidDeviceFunction (a plain pointer) instead of running the kernel",
     f"{CLI}/launch_rewrite.cpp",
     "const std::string named = \"reinterpret_cast\";",
     "const std::string named = \"reinterpret_cast<\";"),
]
