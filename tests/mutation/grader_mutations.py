#!/usr/bin/env python3
"""Mutation check of the grader's tests: puts each bug into the grader, one at
a time, rebuilds it and runs the grader's test suites until one fails; a bug
is caught when a suite fails (a mutation the grader no longer builds with is
INVALID and left out of the count).

    python3 tests/mutation/grader_mutations.py BUILD_DIR [options] [WORDS]

  --set NAME    only the mutations of one set: with-tests (written together
                with the tests that catch them), blind (written without
                reading the tests), extra (those of --extra files)
  --extra FILE  also the mutations of FILE, a Python file that defines
                MUTATIONS, a list of (name, file, text, replacement) like the
                lists below (SRC and LABS are defined for it); repeatable
  --list        print the chosen mutations and stop
  --skip SUITE  leave a suite out (repeatable), e.g. one that fails unmutated
                on this machine; survivors are then survivors of the others
  --relevant    only the suites RELEVANT names for the mutated file (a
                survivor of those reads SURVIVED: the count can only be low)
  --timeout S   a suite that runs longer than S seconds (default 3600) stops
                the check of that mutation as "timed out" (not caught)
  WORDS         only the mutations whose name contains them

First the baseline: the grader and the suites are built unmutated and every
suite must pass, or the check refuses to start and says which test failed.
A passing baseline is remembered (BUILD_DIR/mutation-baseline.json) for the
same working tree, so a second run skips it. Then, for each mutation, the
suites run cheapest first (by their baseline times; a suite that compiles the
mutated file itself before the others), each stopping at its first failing
test, so a caught mutation costs little and a surviving one every suite. A
failure on a run past a suite's time limit (a loaded machine) is not counted
as a catch; the next suite runs.

Restores every file it touched, also on failure or Ctrl-C, and rebuilds.
Prints progress, a table, then "N of M mutations caught"; exits 1 if one
survived that is not marked equivalent (EQUIVALENT, with the reason), 2 if it
could not start."""
import argparse
import json
import os
import pathlib
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
SRC = "grader/src"
# What the mutations go into, in the messages (emulator_mutations.py sets its own).
WHAT = "grader"
LABS = "grader/labs"

# Test binaries (relative to the build folder). test_laws_blind came after the
# blind set's first run (README.md): that run had the others only.
SUITES = [
    "tests/grader/test_raw_answers",
    "tests/grader/test_link_check",
    "tests/grader/test_runner_answers",
    "tests/grader/test_middle_runner",
    "tests/grader/test_ncu",
    "tests/grader/test_source_check",
    "tests/grader/test_source_verdicts",
    "tests/grader/test_sandbox",
    "tests/grader/test_runtime_limits",
    "tests/grader/test_laws",
    "tests/grader/test_laws_blind",
    "tests/grader/test_laws_blind2",
    "tests/grader/test_laws_blind6",
    "tests/grader/test_quiz",
    "tests/grader/test_quiz_kit",
    "tests/grader/test_quiz_zh",
    "tests/grader/test_hostile_stages",
    "tests/grader/test_guard",
    "tests/grader/test_pricing_grades",
    "tests/grader/test_alignment",
    "tests/grader/test_hints",
    "tests/grader/test_nvcc",
    "tests/grader/test_formats",
    "tests/grader/test_variants",
    "tests/grader/test_runner_jobs",
    "tests/grader/test_batch",
    "tests/grader/test_batch_feedback",
    "tests/grader/test_class_report",
    "tests/grader/test_similarity",
    "tests/grader/test_gpu_lock",
    "tests/grader/test_export_program",
    "tests/grader/test_new_stage",
    "tests/grader/test_fake_gpu",
    "tests/grader/test_grader",
    "tests/grader/test_capstone",
    # The bank model's own laws and its H200 calibration (cycles, wavefronts):
    # a mutation of common/bank_model is caught there first (the eighth blind
    # set's mutant 24 survived the grader's suites alone).
    "tests/common/test_bank_model",
]
# With --relevant: the suites that test each part, the only ones tried on a
# mutation of it (a mutation they all miss reads SURVIVED, although another
# suite might catch it: the count can only be too low). Parts not listed get
# every suite.
# An entry is a suite's name, or "name:FILTER" for the doctest test cases
# of that suite whose names match FILTER (-tc=FILTER, commas between
# alternatives): test_grader's cases of one stage, not its 50.
_ANY = ["test_laws", "test_laws_blind", "test_laws_blind2", "test_laws_blind6", "test_hostile_stages", "test_pricing_grades",
        "test_runner_answers", "test_alignment", "test_fake_gpu"]
_STAGE_CASES = {
    1: "test_grader:*stage 1*",
    2: "test_grader:*stage 2*",
    3: "test_grader:known wrong:*,the reference*,the untouched*,a file written*,file-scope*",
    4: "test_grader:*stage 4*",
    5: "test_grader:*stage 5*",
}
_EVERY_STAGE = "test_grader:*stage *,known wrong:*,the reference*,the untouched*,a file written*"
RELEVANT = {
    # Stage 6 has a suite of its own.
    **{f"{LABS}/lab06/{part}": _ANY + ["test_capstone", "test_source_check"]
       for part in ("rubric.cpp", "cpu_runner.cpp", "contract.cpp", "task_data.hpp")},
    **{f"{LABS}/lab0{n}/{part}": _ANY + ["test_variants", _STAGE_CASES[n]] for n in range(1, 6)
       for part in ("rubric.cpp", "cpu_runner.cpp")},
    **{f"{LABS}/lab0{n}/contract.cpp": ["test_source_check", "test_laws", "test_laws_blind", "test_hostile_stages",
                                        "test_batch", "test_source_verdicts", _STAGE_CASES[n]] for n in range(1, 6)},
    f"{SRC}/checks.cpp": _ANY + [_EVERY_STAGE, "test_capstone"],
    f"{SRC}/task_checks.cpp": _ANY + ["test_middle_runner", _EVERY_STAGE, "test_capstone"],
    f"{SRC}/traffic_checks.cpp": _ANY + [_EVERY_STAGE, "test_capstone"],
    f"{SRC}/raw_answers.cpp": ["test_raw_answers"] + _ANY + [_EVERY_STAGE, "test_capstone"],
    f"{SRC}/output.cpp": ["test_formats", "test_laws", "test_laws_blind", "test_batch_feedback", "test_quiz",
                          "test_grader:*format*,*golden*,*--list*,--lab all*"],
    # The gradebook's variant column and --variant-* options: test_variants
    # (the seventeenth set's mutant 16 read SURVIVED without it).
    f"{SRC}/batch.cpp": ["test_batch", "test_batch_feedback", "test_laws_blind", "test_class_report",
                         "test_grader:*--submissions*", "test_variants"],
    f"{SRC}/main.cpp": ["test_formats", "test_laws", "test_laws_blind", "test_batch", "test_variants",
                        "test_grader:usage*,*--list*,*exit status*,*--build-only*,an implementation*,the reference*"],
    "grader/quiz/quiz.cpp": ["test_quiz", "test_quiz_kit", "test_quiz_zh", "test_laws_blind"],
    f"{SRC}/source_check.cpp": ["test_source_check", "test_laws", "test_laws_blind", "test_source_verdicts",
                                "test_hostile_stages", "test_grader:host code*,code that differs*,*include*",
                                "test_capstone:*dishonest*"],
    f"{SRC}/ast_check.cpp": ["test_laws_blind2", "test_source_check", "test_laws_blind", "test_source_verdicts",
                             "test_hostile_stages", "test_grader:host code*,code that differs*,*include*",
                             "test_capstone:*known wrong*"],
    f"{SRC}/contract.cpp": ["test_source_check", "test_laws", "test_laws_blind", "test_hostile_stages",
                            "test_grader:*stage 1*,a file written*"],
    f"{SRC}/link_check.cpp": ["test_link_check", "test_laws_blind2", "test_guard", "test_hostile_stages", "test_sandbox",
                              "test_grader:host code*"],
    f"{SRC}/lab_object_allowlist.inc": ["test_laws_blind2", "test_guard", "test_hostile_stages", "test_sandbox",
                                        "test_grader:host code*"],
    f"{SRC}/sandbox.cpp": ["test_sandbox", "test_runtime_limits", "test_hostile_stages",
                           "test_grader:*include*,JSON printed*"],
    f"{SRC}/process.cpp": ["test_laws_blind2", "test_runtime_limits", "test_sandbox",
                           "test_grader:*infinite loop*,JSON printed*"],
    f"{SRC}/nvcc_check.cpp": ["test_nvcc", "test_laws_blind"],
    f"{SRC}/hints.cpp": ["test_hints", "test_laws_blind"],
    f"{SRC}/ncu_wavefronts.cpp": ["test_fake_gpu", "test_ncu"],
    **{f"common/bank_model/src/{part}": ["test_bank_model"] + _ANY + [_EVERY_STAGE]
       for part in ("bank_model.cpp", "bank_report.cpp", "bank_json.cpp")},
}
TARGETS = ["grader", "sandbox_probe"] + [suite.rsplit("/", 1)[-1] for suite in SUITES]

# Suites that compile a grader source themselves (not only through the
# grader): a mutation of that source is tried on them first.
COMPILED_INTO = {
    f"{SRC}/raw_answers.cpp": ["test_raw_answers", "test_laws_blind2"],
    f"{SRC}/checks.cpp": ["test_laws_blind2"],
    f"{SRC}/process.cpp": ["test_laws_blind2"],
    f"{SRC}/ncu_check.cpp": ["test_ncu"],
    f"{SRC}/ast_check.cpp": ["test_source_check"],
    f"{SRC}/link_check.cpp": ["test_link_check"],
    f"{SRC}/sandbox.cpp": ["test_sandbox", "test_ncu"],
    "grader/quiz/quiz.cpp": ["test_quiz"],
}

# (name, file, text, replacement): each a small change a user would see.
WITH_TESTS = [
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

# Written blind by a reviewer who did not read the tests (first run: README.md).
BLIND = [
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


SETS = {"with-tests": WITH_TESTS, "blind": BLIND}

# Survivors judged equivalent (no user-visible change): name -> why.
# README.md says more for each.
EQUIVALENT = {
    "stage 2/5: the cost check passes a kernel that did not finish on a run":
        "the cost checks need the correctness check, which fails every run that did not finish "
        "(test_middle_runner: runs marked unfinished are not correct, and their costs are 'not checked')",
}


def run(cmd, cwd, timeout=None):
    # errors="replace": a test may print bytes that are not UTF-8 (a mutated
    # reader echoing part of a byte order mark).
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace", timeout=timeout)


def build(build_dir):
    return run(["cmake", "--build", ".", "-j2", "--target", *TARGETS], build_dir)


def minutes(seconds):
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


def say(text):
    print(text, flush=True)


def load_extra(path):
    """The MUTATIONS of an --extra file, checked to be 4-tuples of strings."""
    try:
        names = runpy.run_path(str(path), init_globals={"SRC": SRC, "LABS": LABS})
    except Exception as error:  # the file is the user's: report, do not trace
        raise SystemExit(f"{path}: cannot load it: {type(error).__name__}: {error}")
    entries = names.get("MUTATIONS")
    if not isinstance(entries, list):
        raise SystemExit(f"{path}: defines no list MUTATIONS of (name, file, text, replacement)")
    for i, entry in enumerate(entries):
        if not (isinstance(entry, tuple) and len(entry) == 4 and all(isinstance(x, str) for x in entry)):
            raise SystemExit(f"{path}: MUTATIONS[{i}] is not a (name, file, text, replacement) tuple of 4 strings")
    return entries


def tree_id():
    """The hash of the working tree as git would commit it (untracked files too, ignored ones not),
    less tests/mutation/ (this script and its notes do not change what the suites test)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp, "index"))
        subprocess.run(["git", "read-tree", "HEAD"], cwd=ROOT, env=env, check=True)
        # Tracked files as they are, and new files below the top level: a suite
        # stopped at its first failure may leave a scratch file at the top
        # (test_sandbox: sandbox_test_includes_solution.cu).
        subprocess.run(["git", "add", "-u", "."], cwd=ROOT, env=env, check=True)
        new = subprocess.run(["git", "ls-files", "-o", "--exclude-standard", "-z"], cwd=ROOT, env=env, check=True,
                             stdout=subprocess.PIPE, text=True).stdout.split("\0")
        new = [f for f in new if "/" in f]
        if new:
            subprocess.run(["git", "add", "--", *new], cwd=ROOT, env=env, check=True)
        subprocess.run(["git", "rm", "-r", "-q", "--cached", "--ignore-unmatch", "tests/mutation"], cwd=ROOT, env=env,
                       check=True)
        return subprocess.run(["git", "write-tree"], cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE,
                              text=True).stdout.strip()


# What a suite prints when a check's run went past the suite's --time-limit: on
# a loaded machine that is the machine, not the grader (not counted as caught).
TIME_LIMIT = "did not finish within the time limit"


def failed_cases(output):
    """The doctest test cases named in a suite's failure output."""
    return [line.split("TEST CASE:", 1)[1].strip() for line in output.splitlines() if "TEST CASE:" in line]


def entry_parts(entry):
    """(suite path, doctest filter or None) of an entry, "name" or "name:FILTER"."""
    name, _, filter_ = entry.partition(":")
    return next(s for s in SUITES if s.rsplit("/", 1)[-1] == name), (filter_ or None)


def entry_command(entry, abort=False):
    suite, filter_ = entry_parts(entry)
    return [f"./{suite}"] + (["--abort-after=1"] if abort else []) + ([f"-tc={filter_}"] if filter_ else [])


def entry_cases(build_dir, entry):
    """The names of the test cases an entry runs (doctest's -ltc with its filter)."""
    command = entry_command(entry) + ["-ltc"]
    r = run(command, build_dir, 120)
    lines = r.stdout.splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("[doctest]") and
            not line.startswith("=")}


def baseline(build_dir, timeout, skip, wanted=None):
    """Seconds per entry (a suite, or a suite's filtered cases; less those in `skip`) on the unmutated
    code; None (after saying why) if one fails."""
    stamp = build_dir / "mutation-baseline.json"
    tree = tree_id()
    entries = sorted(wanted) if wanted is not None else [s.rsplit("/", 1)[-1] for s in SUITES]
    entries = [e for e in entries if e.partition(":")[0] not in skip]
    known = {}
    if stamp.exists():
        stored = json.loads(stamp.read_text())
        if stored.get("tree") == tree:
            known = stored["seconds"]
    if all(e in known for e in entries):
        say(f"baseline: passed before on this working tree ({stamp.name}), not run again")
        return {e: known[e] for e in entries}
    say(f"baseline: building the {WHAT} and the suites unmutated")
    built = build(build_dir)
    if built.returncode != 0:
        say(built.stdout[-3000:])
        say(f"baseline: the unmutated {WHAT} or a suite does not build (above); fix that first")
        return None
    seconds = dict(known)
    start = time.monotonic()
    # The cases each passed entry ran, by suite: an entry whose cases all
    # passed already (a stage's cases after every stage's) is not run again;
    # its time is estimated from theirs.
    passed = {}
    for entry in seconds:
        if (build_dir / entry_parts(entry)[0]).exists():
            cases = entry_cases(build_dir, entry)
            passed.setdefault(entry.partition(":")[0], {}).update({c: seconds[entry] / max(1, len(cases))
                                                                    for c in cases})
    for i, entry in enumerate(entries, 1):
        if entry in seconds:
            continue
        cases = entry_cases(build_dir, entry) if (build_dir / entry_parts(entry)[0]).exists() else set()
        ran = passed.get(entry.partition(":")[0], {})
        if cases and cases <= ran.keys():
            seconds[entry] = sum(ran[c] for c in cases)
            say(f"baseline: {entry}: its {len(cases)} cases passed in earlier entries")
            stamp.write_text(json.dumps({"tree": tree, "seconds": seconds}, indent=1))
            continue
        suite, _ = entry_parts(entry)
        if not (build_dir / suite).exists():
            say(f"baseline: {build_dir / suite} was not built: is the build folder configured with tests?")
            return None
        say(f"baseline: {entry} ({i} of {len(entries)}), {minutes(time.monotonic() - start)} elapsed")
        t0 = time.monotonic()
        try:
            r = run(entry_command(entry), build_dir, timeout)
        except subprocess.TimeoutExpired:
            say(f"baseline: {entry} ran past {timeout} s unmutated; raise --timeout or run it alone to see why")
            return None
        if r.returncode != 0:
            say(r.stdout[-4000:])
            cases = "; ".join(failed_cases(r.stdout)) or "see its output above"
            say(f"baseline: {entry} fails on the unmutated {WHAT} ({cases}).\n"
                f"A mutation check needs every suite passing first; fix the failure, or run the check in a\n"
                f"build folder where it passes (rerun it: build/{' '.join(entry_command(entry))[2:]}).")
            if TIME_LIMIT in r.stdout:
                say("Note: runs went past the suites' time limit (--time-limit 4 in the tests): the machine is too\n"
                    "loaded (uptime) for them; run the check when it is not, or leave the suite out with --skip.")
            if "crash at" in r.stdout:
                say("Note: a crash's line comes from the emulator's __FILE__ (common/emulator/src/crash.cpp);\n"
                    "in a build through ccache with CCACHE_BASEDIR (/work/buildenv.sh) __FILE__ is a relative\n"
                    "path and the kernel's line is not found: configure this build folder without ccache.")
            return None
        seconds[entry] = time.monotonic() - t0
        passed.setdefault(entry.partition(":")[0], {}).update({c: seconds[entry] / max(1, len(cases)) for c in cases})
        stamp.write_text(json.dumps({"tree": tree, "seconds": seconds}, indent=1))  # kept as each passes
    say(f"baseline: every suite passes ({minutes(time.monotonic() - start)})")
    return {e: seconds[e] for e in entries}


def suite_order(rel, seconds, relevant=False):
    """The entries to try on a mutation of `rel`: those compiling it first, then by baseline time
    (with `relevant`, only those RELEVANT names for it)."""
    first = COMPILED_INTO.get(rel, [])
    if relevant and rel in RELEVANT:
        pool = list(RELEVANT[rel])
    else:
        pool = [s.rsplit("/", 1)[-1] for s in SUITES]
    pool = [e for e in pool if e in seconds]
    return sorted(pool, key=lambda e: (e.partition(":")[0] not in first, seconds.get(e, 0)))


def check_mutation(build_dir, rel, seconds, timeout, start, relevant=False):
    """The verdict on the tree as it is now (mutated)."""
    t0 = time.monotonic()
    say(f"    building ({minutes(start())} elapsed)")
    if build(build_dir).returncode != 0:
        # Not a catch: a bug the compiler refuses is no measure of the tests.
        return "INVALID (does not build)"
    say(f"    built in {minutes(time.monotonic() - t0)}")
    order = suite_order(rel, seconds, relevant)
    unsure = []
    for i, entry in enumerate(order, 1):
        t1 = time.monotonic()
        say(f"    {entry} ({i} of {len(order)}), {minutes(start())} elapsed")
        try:
            r = run(entry_command(entry, abort=True), build_dir, timeout)
        except subprocess.TimeoutExpired:
            return f"TIMED OUT in {entry}"
        if r.returncode != 0:
            cases = failed_cases(r.stdout)
            if TIME_LIMIT in r.stdout:
                say(f"    {entry} fails, but on a run past its time limit (load?): not counted, next suite")
                unsure.append(entry)
                continue
            say(f"    {entry} fails after {minutes(time.monotonic() - t1)}" + (f": {cases[0]}" if cases else ""))
            return f"caught by {entry.partition(':')[0]}" + (" (filtered cases)" if ":" in entry else "")
    return "SURVIVED" + (f" (time limit in {', '.join(unsure)})" if unsure else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     usage="%(prog)s BUILD_DIR [--set NAME] [--extra FILE] [--list] [WORDS]")
    parser.add_argument("build_dir")
    parser.add_argument("words", nargs="*")
    parser.add_argument("--set", choices=["with-tests", "blind", "extra"])
    parser.add_argument("--extra", action="append", default=[], type=pathlib.Path)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--timeout", type=int, default=3600)
    parser.add_argument("--skip", action="append", default=[], metavar="SUITE")
    parser.add_argument("--relevant", action="store_true")
    args = parser.parse_intermixed_args()
    sets = dict(SETS, extra=[m for path in args.extra for m in load_extra(path)])
    everything = [(set_name, m) for set_name, ms in sets.items() for m in ms]
    names = [m[0] for _, m in everything]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        print(f"two mutations are named '{duplicates[0]}': give each its own name", file=sys.stderr)
        return 2
    only = " ".join(args.words)
    chosen = [m for set_name, m in everything if (not args.set or set_name == args.set) and only in m[0]]
    if not chosen:
        print("no mutation matches: see --list", file=sys.stderr)
        return 2
    for name, rel, old, _ in chosen:
        if not (ROOT / rel).exists() or (ROOT / rel).read_text().count(old) != 1:
            print(f"cannot apply '{name}': the text is not in {rel} exactly once", file=sys.stderr)
            return 2
    if args.list:
        for i, (name, rel, _, _) in enumerate(chosen, 1):
            print(f"{i:3}. {name}  ({rel})" + ("  [equivalent]" if name in EQUIVALENT else ""))
        return 0
    build_dir = pathlib.Path(args.build_dir).resolve()
    if not (build_dir / "CMakeCache.txt").exists():
        print(f"{build_dir}: not a CMake build folder (configure it: cmake --preset default)", file=sys.stderr)
        return 2
    # A kill (SIGTERM) restores the mutated file as Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    began = time.monotonic()
    elapsed = lambda: time.monotonic() - began  # noqa: E731
    unknown = [name for name in args.skip if name not in [s.rsplit("/", 1)[-1] for s in SUITES]]
    if unknown:
        print(f"--skip {unknown[0]}: not one of the suites ({', '.join(s.rsplit('/', 1)[-1] for s in SUITES)})",
              file=sys.stderr)
        return 2
    if args.skip:
        say(f"left out: {', '.join(args.skip)}; a mutation they alone would catch reads SURVIVED")
    wanted = None
    if args.relevant:
        wanted = set()
        for _, rel, _, _ in chosen:
            wanted |= set(RELEVANT.get(rel, [s.rsplit("/", 1)[-1] for s in SUITES]))
        say(f"--relevant: the suites of the mutated files only ({', '.join(sorted(wanted))})")
    seconds = baseline(build_dir, args.timeout, args.skip, wanted)
    if seconds is None:
        return 2
    results = []
    try:
        for index, (name, rel, old, new) in enumerate(chosen, 1):
            path = ROOT / rel
            original = path.read_bytes()
            say(f"[{index}/{len(chosen)}] {name}  ({rel})")
            start = time.monotonic()
            # The runners an earlier grader built are never reused (their cache keys carry the grader's
            # digest), and each mutant's would fill the disk by the twentieth (2 GB each).
            shutil.rmtree(build_dir / "grader" / "cache", ignore_errors=True)
            try:
                path.write_bytes(original.replace(old.encode(), new.encode()))
                verdict = check_mutation(build_dir, rel, seconds, args.timeout, elapsed, args.relevant)
            finally:
                path.write_bytes(original)
            if verdict == "SURVIVED" and name in EQUIVALENT:
                verdict = "survived (equivalent)"
            results.append((name, verdict))
            say(f"[{index}/{len(chosen)}] {verdict}, {minutes(time.monotonic() - start)}; {minutes(elapsed())} in all")
    except KeyboardInterrupt:
        say(f"stopped after {len(results)} of {len(chosen)} mutations (the mutated file is restored)")
    finally:
        say(f"rebuilding the unmutated {WHAT}")
        build(build_dir)
    if not results:
        return 1
    say("")
    width = max(len(v) for _, v in results)
    for name, verdict in results:
        say(f"{verdict:{width}}  {name}")
    caught = sum(v.startswith("caught") for _, v in results)
    equivalent = sum(v == "survived (equivalent)" for _, v in results)
    invalid = sum(v.startswith("INVALID") for _, v in results)
    if invalid:
        say(f"{invalid} mutation(s) did not build: fix them (they are left out of the count)")
        results = [(n, v) for n, v in results if not v.startswith("INVALID")]
    say(f"\n{caught} of {len(results)} mutations caught" +
        (f" ({equivalent} more marked equivalent; {caught} of {len(results) - equivalent} others)" if equivalent else "") +
        (f"; {len(chosen) - len(results)} not run (stopped)" if len(results) < len(chosen) else "") +
        f", {minutes(elapsed())}")
    return 0 if caught + equivalent == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
