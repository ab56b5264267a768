#!/usr/bin/env python3
"""Mutation check of the emulator's tests: puts each bug into the CPU emulator,
the bank model, banksim or `banklab run`, one at a time, rebuilds and runs
their test suites until one fails; a bug is caught when a suite fails (a
mutation that no longer builds is INVALID and left out of the count).

    python3 tests/mutation/emulator_mutations.py BUILD_DIR [options] [WORDS]

  --set NAME    with-tests (the bugs an earlier review found the tests
                missed, each with its test since), or extra (--extra files)
  --extra FILE  the mutations of FILE, a Python file that defines MUTATIONS,
                a list of (name, file, text, replacement); repeatable
  --list        print the chosen mutations and stop
  --skip SUITE  leave a suite out (repeatable)
  --timeout S   a suite running longer than S seconds (default 3600) stops
                the check of that mutation as "timed out" (not caught)
  WORDS         only the mutations whose name contains them

The machinery is grader_mutations.py's (its --help says more): the same
baseline (every suite must pass unmutated first; remembered in
BUILD_DIR/mutation-baseline.json), the suites cheapest first, each stopping at
its first failing test, every file restored also on Ctrl-C or SIGTERM, a table
and "N of M mutations caught"; exit 1 if one survived, 2 if it could not
start. Only the suites differ (SUITES below)."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import grader_mutations as tool  # noqa: E402

EMU = "common/emulator"
HOST = f"{EMU}/include/banklab/cuda_host.hpp"

# (name, file, text, replacement): the bugs an earlier review found the tests missed.
MUTATIONS = [
    ("warp instructions assembled per block, not per warp", f"{EMU}/src/trace.cpp",
     "r.warp_traces[static_cast<std::size_t>(self.warp)].find(pc)", "r.warp_traces[0].find(pc)"),
    ("write-after-read races never reported", f"{EMU}/src/trace.cpp",
     "if (write && !atomic && s.read_epoch == r.epoch", "if (false && write && !atomic && s.read_epoch == r.epoch"),
    ("uninitialised reads checked per launch, not per block", f"{EMU}/src/trace.cpp",
     "if (!write && s.write_epoch < r.block_start_epoch) return false;",
     "if (!write && s.write_epoch == 0) return false;"),
    ("shared memory poisoned with zeros", f"{EMU}/src/layout.cpp",
     "std::memset(reinterpret_cast<void*>(v.address), 0xff, v.size)",
     "std::memset(reinterpret_cast<void*>(v.address), 0, v.size)"),
    ("shared alignment capped at 4 bytes", f"{EMU}/src/layout.cpp",
     "place(s, s.size, alignment_of(s), s.alignment);",
     "place(s, s.size, std::min<std::size_t>(alignment_of(s), 4), s.alignment);"),
    ("a full-mask shuffle deadlocks in a partial last warp", f"{EMU}/src/runtime.cpp",
     "const std::uint32_t needed = (mask & warp.present) & ~warp.exited;",
     "const std::uint32_t needed = mask & ~warp.exited;"),
    ("__all_sync behaves as __any_sync", f"{EMU}/src/device_functions.cpp",
     "return (__ballot_sync(mask, predicate) & live) == live;", "return (__ballot_sync(mask, predicate) & live) != 0;"),
    ("atomicMax computes the minimum", f"{EMU}/src/device_functions.cpp",
     "BANKLAB_ATOMIC(int, atomicMax, (int* address, int value), *address = std::max(old, value))",
     "BANKLAB_ATOMIC(int, atomicMax, (int* address, int value), *address = std::min(old, value))"),
    ("__shfl_up_sync off by one", HOST,
     "in_segment >= static_cast<int>(delta) ? lane - static_cast<int>(delta) : lane",
     "in_segment >= static_cast<int>(delta) ? lane - static_cast<int>(delta) + 1 : lane"),
    ("one __syncthreads() at two call sites is two barriers", f"{EMU}/src/runtime.cpp",
     "if (at_barrier.size() > 1) merge_same_line(at_barrier);", ""),
    ("extern __shared__ arrays counted as static variables", f"{EMU}/src/symbols.cpp",
     "if (dynamic_address != 0 && img.tls[v].address == dynamic_address) return;", ""),
    ("__reduce_min_sync computes the maximum", HOST,
     "return static_cast<int>(banklab::emu::detail::warp_reduce(mask, static_cast<unsigned>(value), 2));",
     "return static_cast<int>(banklab::emu::detail::warp_reduce(mask, static_cast<unsigned>(value), 3));"),
    ("atomicCAS priced as a plain store", f"{EMU}/src/device_functions.cpp",
     "BANKLAB_ATOMIC_KIND(kCas, int, atomicCAS,", "BANKLAB_ATOMIC_KIND(kNative, int, atomicCAS,"),
    ("warp instructions joined across barriers", f"{EMU}/src/runtime.cpp",
     "      for (int w = 0; w < warp_count; ++w) rt().trace_converge(w);\n", ""),
    ("__syncthreads_and behaves as __syncthreads_or", f"{EMU}/src/device_functions.cpp",
     "return self != nullptr ? self->barrier_result == self->barrier_arrived : predicate != 0;",
     "return self != nullptr ? self->barrier_result != 0 : predicate != 0;"),
    ("a word never split into bytes by a byte access", f"{EMU}/src/trace.cpp",
     "    if (f(rt().shadow_bytes[b], b)) return;", "    if (f(word, b)) return;"),
    ("global atomics unlocked on several workers", f"{EMU}/src/device_functions.cpp",
     "    if (a - r.section_lo < r.section_span) return;  // shared memory", "    return;"),
    ("a finding of several workers keeps a later block's details", f"{EMU}/src/runtime.cpp",
     "      if (block < e.block) e = Entry{block, i, std::move(f)};",
     "      if (block > e.block) e = Entry{block, i, std::move(f)};"),
]

# Test binaries (relative to the build folder) that test the emulator, the bank
# model, banksim and banklab run.
SUITES = [
    "tests/common/test_bank_model",
    "tests/common/test_banksim_cli",
    "tests/common/emulator/test_emulator_alignment",
    "tests/common/emulator/test_emulator",
    "tests/cli/test_banklab_cli",
]


def main():
    tool.__doc__ = __doc__
    tool.WHAT = "emulator"
    tool.SUITES = SUITES
    tool.TARGETS = ["banklab", "banksim"] + [suite.rsplit("/", 1)[-1] for suite in SUITES]
    tool.RELEVANT = {}
    tool.COMPILED_INTO = {}
    tool.SETS = {"with-tests": MUTATIONS, "blind": []}
    tool.EQUIVALENT = {}
    return tool.main()


if __name__ == "__main__":
    sys.exit(main())
