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
    "tests/grader/test_laws",
    "tests/grader/test_quiz",
    "tests/grader/test_grader",
]
TARGETS = ["grader", "test_laws", "test_quiz", "test_grader"]

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
