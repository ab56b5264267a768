#!/usr/bin/env python3
"""Mutation check of the grader's tests: puts each bug into the grader, one at
a time, rebuilds it and runs the grader's test suites until one fails; a bug
is caught when a suite fails (or the grader no longer builds).

    python3 tests/mutation/grader_mutations.py BUILD_DIR [WORDS]

(WORDS: only the mutations whose name contains them.) The suites run in the
order of SUITES, each stopping at its first failure, so a caught mutation
costs little and a surviving one the whole suite.

Restores every file it touched, also on failure or Ctrl-C, and rebuilds.
Prints a table, then "N of M mutations caught"; exits 1 if one survived."""
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = "grader/src"
LABS = "grader/labs"

# Test binaries (relative to the build folder), cheapest first.
SUITES = [
    "tests/grader/test_raw_answers",
    "tests/grader/test_ncu",
    "tests/grader/test_source_check",
    "tests/grader/test_sandbox",
    "tests/grader/test_laws",
    "tests/grader/test_quiz",
    "tests/grader/test_hostile_stages",
    "tests/grader/test_guard",
    "tests/grader/test_pricing_grades",
    "tests/grader/test_nvcc",
    "tests/grader/test_batch",
    "tests/grader/test_grader",
]
TARGETS = ["grader", "sandbox_probe"] + [suite.rsplit("/", 1)[-1] for suite in SUITES]

# (name, file, text, replacement): each a small change a user would see.
MUTATIONS = [
    ("stage 1: a word read by one lane counts as a multicast", f"{LABS}/lab01/rubric.cpp",
     "if (lanes < 2) return", "if (lanes < 1) return"),
    ("the shared-memory bound loosened by four floats", f"{SRC}/checks.cpp",
     "if (bytes > limit) return Outcome::fail", "if (bytes > limit + 16) return Outcome::fail"),
    ("stage 4: negative swizzle values accepted", f"{LABS}/lab04/rubric.cpp",
     "if (v < 0 || v >= cols) {", "if (v >= cols) {"),
    ("Gradescope: a skipped check keeps its points as max_score", f"{SRC}/output.cpp",
     '{"max_score", skipped ? 0.0 : c.check->points}', '{"max_score", c.check->points}'),
    ("quiz: \"13 wavefronts\" read as 13", "grader/quiz/quiz.cpp",
     "if (used != given.size()) return", "if (used == 0) return"),
    ("a CPU/GPU difference after the last common line not seen", f"{SRC}/source_check.cpp",
     "for (std::size_t i = 0; i <= n; ++i) {", "for (std::size_t i = 0; i < n; ++i) {"),
    # Written blind (without reading the tests), to measure the suite:
    ("stage 1: a puzzle solved with two load instructions passes", f"{LABS}/lab01/rubric.cpp",
     "if (instructions != 1 || wavefronts != spec.target) {", "if (wavefronts != spec.target) {"),
    ("stage 1: the conflict-free puzzle accepts 31 different words", f"{LABS}/lab01/rubric.cpp",
     'if (name == "conflict free" && words.size() != 32)', 'if (name == "conflict free" && words.size() < 31)'),
    ("stage 2: conflict_degree with one wrong case passes", f"{LABS}/lab02/rubric.cpp",
     "if (wrong == 0) {", "if (wrong <= 1) {"),
    ("stage 2: row_sums may use a 66-float row pitch (bound says 65)", f"{LABS}/lab02/rubric.cpp",
     "128 * 65 * 4", "128 * 66 * 4"),
    ("stage 3: dynamic shared memory not counted against the 32x33 bound", f"{LABS}/lab03/rubric.cpp",
     ' + r.report["dynamic_shared_bytes"].get<std::size_t>()', ""),
    ("stage 3: a file without predicted_wavefronts skips the predictions (no points lost)", f"{LABS}/lab03/rubric.cpp",
     '    return Outcome::fail(\n        "this file has no predicted_wavefronts',
     '    return Outcome::skip(\n        "this file has no predicted_wavefronts'),
    ("stage 4: two neighbouring rows/columns mapped to one place not caught", f"{LABS}/lab04/rubric.cpp",
     "for (std::size_t j = start; j < i; ++j) {", "for (std::size_t j = start; j + 1 < i; ++j) {"),
    ("stage 4: a chunk run that stopped early counted as correct", f"{LABS}/lab04/rubric.cpp",
     'run["mismatches"].get<long long>() == 0 && !stopped) continue;', 'run["mismatches"].get<long long>() == 0) continue;'),
    ("stage 5: sum_quads reading shared memory once for all passes passes the cost check", f"{LABS}/lab05/rubric.cpp",
     "16 * outputs * passes, passes", "16 * outputs, passes"),
    ("stage 5: the half tile may be 64x67 (bound says 64x66)", f"{LABS}/lab05/rubric.cpp",
     "64 * 66 * 2", "64 * 67 * 2"),
    ("a kernel with no shared-memory access passes the per-line cost check", f"{SRC}/checks.cpp",
     "if (lines.empty()) return Outcome::fail(none_found);", "if (lines.empty()) return Outcome::pass(none_found);"),
    ("a kernel with exactly one race/out-of-bounds finding passes the findings check", f"{SRC}/checks.cpp",
     "if (!found.empty()) {", "if (found.size() > 1) {"),
    ("raw-answer pricing: a conflicted access priced at its ideal (conflicts pass)", f"{SRC}/raw_answers.cpp",
     "out.ideal_wavefronts += static_cast<std::uint64_t>(cost.ideal_wavefronts) * count;",
     "out.ideal_wavefronts += static_cast<std::uint64_t>(cost.wavefronts) * count;"),
    ("JSON: a skipped check reported with status fail", f"{SRC}/output.cpp",
     ': "skip";', ': "fail";'),
    ("JUnit: skipped checks counted in the suite's failures", f"{SRC}/output.cpp",
     "failures += c.outcome.status == Status::kFail;", "failures += c.outcome.status != Status::kPass;"),
    ("batch: a submission that fails a check gets 'grader failed' and 0 points", f"{SRC}/batch.cpp",
     "if (r.exited && (r.exit_code == 0 || r.exit_code == 1)) {", "if (r.exited && r.exit_code == 0) {"),
    ("batch rerun: an edited submission keeps its old gradebook row", f"{SRC}/batch.cpp",
     'row->value("sha", "") == content_hash(all[i].file) && ', ""),
    ("quiz: a capital letter (\"C\") refused as not a choice", "grader/quiz/quiz.cpp",
     "std::tolower(static_cast<unsigned char>(c))", "static_cast<unsigned char>(c)"),
    ("AST check: a constant address cast to a pointer, (float*)0x601000, accepted", f"{SRC}/ast_check.cpp",
     "clang_EvalResult_getAsLongLong(value) == 0;", "clang_EvalResult_getAsLongLong(value) >= 0;"),
    ("declaration check: an inline kernel or device function accepted", f"{SRC}/ast_check.cpp",
     "if (k.declared_constexpr(c) || clang_Cursor_isFunctionInlined(c)) {", "if (k.declared_constexpr(c)) {"),
    ("link check: any __-prefixed symbol (__libc_*, __errno_location) allowed", f"{SRC}/lab_object_allowlist.inc",
     "__tsan_*", "__*"),
    ("nvcc step: a file nvcc refuses is accepted (any failure read as 'no nvcc')", f"{SRC}/nvcc_check.cpp",
     "r.exit_code == 127", "r.exit_code != 0"),
    ("sandbox: ptrace allowed to submission code", f"{SRC}/sandbox.cpp",
     '{"ptrace", "process_vm_readv",', '{"process_vm_readv",'),
    ("sandbox: solutions/ visible to the compile steps (a file at the kit root can include them)", f"{SRC}/sandbox.cpp",
     'view.hidden = {config.source_dir + "/solutions", config.build_dir};', "view.hidden = {config.build_dir};"),
]


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def build(build_dir):
    return run(["cmake", "--build", ".", "-j2", "--target", *TARGETS], build_dir)


def caught_by(build_dir):
    """The first suite that fails, or None."""
    for suite in SUITES:
        if not (build_dir / suite).exists():
            continue
        if run([f"./{suite}", "--abort-after=1"], build_dir).returncode != 0:
            return suite.rsplit("/", 1)[-1]
    return None


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir = pathlib.Path(sys.argv[1]).resolve()
    only = " ".join(sys.argv[2:])
    chosen = [m for m in MUTATIONS if not only or only in m[0]]
    for name, rel, old, _ in chosen:
        if (ROOT / rel).read_text().count(old) != 1:
            print(f"cannot apply '{name}': the text is not in {rel} exactly once", file=sys.stderr)
            return 2
    survived = 0
    for index, (name, rel, old, new) in enumerate(chosen, 1):
        path = ROOT / rel
        original = path.read_text()
        start = time.monotonic()
        try:
            path.write_text(original.replace(old, new))
            if build(build_dir).returncode != 0:
                verdict = "caught (does not build)"
            else:
                suite = caught_by(build_dir)
                verdict = f"caught by {suite}" if suite else "SURVIVED"
        finally:
            path.write_text(original)
        survived += verdict == "SURVIVED"
        print(f"[{index}/{len(chosen)}] {verdict:26} {time.monotonic() - start:5.0f} s  {name}", flush=True)
    build(build_dir)
    print(f"\n{len(chosen) - survived} of {len(chosen)} mutations caught")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
