#!/usr/bin/env python3
"""Mutation check of the emulator's tests: puts each bug back, one at a time,
rebuilds test_emulator and runs it; a bug is caught when the tests fail.

    python3 tests/mutation/emulator_mutations.py BUILD_DIR [WORDS]

(WORDS: only the mutations whose name contains them.)

Restores every file it touched, also on failure or Ctrl-C. Prints a table and
exits 1 if a mutation survived."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
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
     "    place(s, s.size, align);", "    place(s, s.size, std::min<std::size_t>(align, 4));"),
    ("a full-mask shuffle deadlocks in a partial last warp", f"{EMU}/src/runtime.cpp",
     "const std::uint32_t needed = (warp.mask & warp.present) & ~warp.exited;",
     "const std::uint32_t needed = warp.mask & ~warp.exited;"),
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


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def main():
    build = pathlib.Path(sys.argv[1]).resolve()
    rows, survived = [], 0
    only = " ".join(sys.argv[2:])
    for name, rel, old, new in MUTATIONS:
        if only and only not in name:
            continue
        path = ROOT / rel
        original = path.read_text()
        if original.count(old) != 1:
            print(f"cannot apply '{name}': the text is not in {rel} exactly once", file=sys.stderr)
            return 2
        try:
            path.write_text(original.replace(old, new))
            built = run(["make", "-j2", "test_emulator"], build)
            if built.returncode != 0:
                verdict = "caught (does not build)"
            else:
                tests = run(["./tests/common/emulator/test_emulator"], build)
                verdict = "caught" if tests.returncode != 0 else "SURVIVED"
        finally:
            path.write_text(original)
        survived += verdict == "SURVIVED"
        rows.append((name, verdict))
        print(f"{verdict:24} {name}", flush=True)
    run(["make", "-j2", "test_emulator"], build)
    print(f"\n{len(rows) - survived} of {len(rows)} mutations caught")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
