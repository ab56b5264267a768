#!/usr/bin/env python3
"""Fifteenth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners, contracts, task data and headers, stage 6's capstone rubric,
the quiz and its key, the hints, README), common/bank_model/ (the bank model
the grader prices with), and, for the format and to avoid duplicates,
tests/mutation/grader_mutations.py and grader_mutants_blind2.py ...
grader_mutants_blind14.py; nothing else under tests/ (no test sources, no test
data), no grep outside grader/ and common/bank_model/, no git history. Nothing
was built or run (only this module was imported, to count each text in its
file).
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind15.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: a lane at byte offset 0 is shown as '-' (inactive) in every puzzle's 'your offsets (lane 0 to 31, "
     "- inactive): ...' line (a broadcast at byte 0 reads as all dashes)",
     f"{LABS}/lab01/rubric.cpp",
     'if (offsets[lane] < 0) {',
     'if (offsets[lane] <= 0) {'),
    ("stage 1: a wrong word_of or bank_of lists its wrong offsets the other way round: 'bank_of(4) = 1, expected 7' "
     "where the student's function returned 7 and the bank is 1",
     f"{LABS}/lab01/rubric.cpp",
     '<< yours << ", expected " << expected;',
     '<< expected << ", expected " << yours;'),
    # ---- stage 2 ----
    ("stage 2: prediction P7 ('lane l reads word 5 + 3 l (stride 3, base 5)') priced at stride 6 (2 wavefronts): the "
     "right answer, 1, is marked wrong",
     f"{LABS}/lab02/rubric.cpp",
     'strided("P7", "lane l reads word 5 + 3 l (stride 3, base 5).", 3, 5),',
     'strided("P7", "lane l reads word 5 + 3 l (stride 3, base 5).", 6, 5),'),
    ("stage 2, graded with a variant: prediction P5's check is named '... (R = BANKLAB_P4_STRIDE)', the same name as "
     "P4's (one gradebook column for two checks)",
     f"{LABS}/lab02/rubric.cpp",
     '{"P5", "BANKLAB_P5_STRIDE"},',
     '{"P5", "BANKLAB_P4_STRIDE"},'),
    # ---- stage 3 ----
    ("stage 3: 'transpose of partial tiles: 1x1, 31x33, 33x31' runs the 32x32 matrix instead: a kernel with no bounds "
     "test passes it",
     f"{LABS}/lab03/rubric.cpp",
     '[p](GradeContext& c) { return check_shapes(c, p, kPartial); });',
     '[p](GradeContext& c) { return check_shapes(c, p, kSquare); });'),
    ("stage 3: 'transpose of two random shapes, odd and even' worth 5 points instead of 10 (the correctness part 35, "
     "the stage's maximum down by 5)",
     f"{LABS}/lab03/rubric.cpp",
     'add("transpose of two random shapes, odd and even", "correctness", 10, {}, false,',
     'add("transpose of two random shapes, odd and even", "correctness", 5, {}, false,'),
    # ---- stage 4 ----
    ("stage 4: a passing 'swizzle keeps every element in its row' says 'all 1024 values in 0..32' (one past the "
     "last column)",
     f"{LABS}/lab04/rubric.cpp",
     'values in 0.." + std::to_string(cols - 1));',
     'values in 0.." + std::to_string(cols));'),
    ("stage 4: an out-of-bounds shared access (a swizzled index past the tile) passes both tasks' findings checks "
     "('no out-of-bounds, misaligned, racy ...')",
     f"{LABS}/lab04/rubric.cpp",
     'kFindingKinds = {"out-of-bounds global access", "out-of-bounds shared access",',
     'kFindingKinds = {"out-of-bounds global access",'),
    # ---- stage 5 ----
    ("stage 5: sum_quads's four checks (correct, findings, cost, shared memory: the 'vector loads' part, 16 points) "
     "are missing from the report and the stage's maximum",
     f"{LABS}/lab05/rubric.cpp",
     '  for (int t = 0; t < 4; ++t) {\n    const KernelTask& task = tasks()[t];\n    const Points& p = points[t];',
     '  for (int t = 0; t < 3; ++t) {\n    const KernelTask& task = tasks()[t];\n    const Points& p = points[t];'),
    ("stage 5: transpose_double's findings check ('no race, barrier divergence, ...') worth 3 points instead of 2 "
     "(the double tile part 18, the stage's maximum up by 1)",
     f"{LABS}/lab05/rubric.cpp",
     '{"double tile", 5, 2, 7, 3}',
     '{"double tile", 5, 3, 7, 3}'),
    # ---- stage 6 ----
    ("stage 6: a complete, right diagnosis fails every 'diagnosis of KERNEL' check: each task's check says the other "
     "kernels' rows 'cost their ideal in KERNEL: no conflict to diagnose'",
     f"{LABS}/lab06/rubric.cpp",
     'if (!conflicted && key.shared_lines[t].count(r.line)) {',
     'if (!conflicted) {'),
    ("stage 6: stencil_cross's shared-memory bound is 36x12 ints (1728 bytes) while its name still says '36 x 13 ints': "
     "a padded 36x13 tile (1872 bytes) fails 'shared memory no more than 36 x 13 ints'",
     f"{LABS}/lab06/rubric.cpp",
     '36 * 13 * 4',
     '36 * 12 * 4'),
    # ---- checks and pricing ----
    ("per-line costs (every stage): each line's report 'transpose.cu:42: ...' shows the source text of the line after "
     "the one it names",
     f"{SRC}/checks.cpp",
     'for (int i = 1; std::getline(in, text); ++i) {',
     'for (int i = 0; std::getline(in, text); ++i) {'),
    ("bank model (count_wavefronts): lanes on one word are counted once per lane, not once per word: stage 2's "
     "conflict_degree(0, n) is expected to be n (the right answer, 1, fails) and the runners' raw patterns are priced "
     "with broadcasts as conflicts",
     "common/bank_model/src/bank_model.cpp",
     'for (std::ptrdiff_t i = 0; i < distinct; ++i)',
     'for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i)'),
    # ---- output formats ----
    ("JUnit: a file that does not build is left out of <testsuites failures=...> (the root says failures=\"0\" "
     "while its suite says failures=\"1\")",
     f"{SRC}/output.cpp",
     '      ++all_tests;\n      ++all_failures;\n',
     '      ++all_tests;\n'),
    ("PrairieLearn: the top-level \"images\" holds the first bank map of every failing check, not only the very "
     "first one beside the score",
     f"{SRC}/output.cpp",
     'if (images.empty()) images.push_back(drawn[0]);',
     'images.push_back(drawn[0]);'),
    # ---- batch and gradebook ----
    ("batch rerun: 'changed since the last run: N submissions' counts changes, not submissions (one student whose "
     "total and one check changed is '2 submissions')",
     f"{SRC}/batch.cpp",
     'changed_rows += changed.empty() ? 0 : 1;',
     'changed_rows += changed.size();'),
    # ---- class report ----
    ("class report: the score histogram has no 'full marks' bar (no '100' column): submissions at full marks are "
     "not drawn",
     f"{SRC}/class_report.cpp",
     'for (int b = 0; b < 11; ++b) {',
     'for (int b = 0; b < 10; ++b) {'),
    # ---- the quiz ----
    ("quiz: a wrong answer to Q12 (the diagonal of a 32x33 tile) is told 'see it: banksim --width 4 --stride 33', "
     "which prices the column (1 wavefront), not the diagonal (stride 34, 2)",
     "grader/quiz/quiz.cpp",
     'loads(4, 34),',
     'loads(4, 33),'),
    # ---- hints ----
    ("hints: --hint on a failing stage 1 puzzle gives the generic hints ('Read the failing check's output ...') "
     "instead of the puzzles' ladder",
     f"{SRC}/hints.cpp",
     '{1, "puzzle",',
     '{1, "puzzles",'),
    # ---- integrity checks ----
    ("source check: an asm statement spelt `__asm` (`__asm(\"...\")`, `__asm volatile`) is no longer refused ('an "
     "asm statement: a lab file is CUDA C++')",
     f"{SRC}/ast_check.cpp",
     'if (t == "asm" || t == "__asm" || t == "__asm__") {',
     'if (t == "asm" || t == "__asm__") {'),
    # ---- sandbox ----
    ("sandbox: unshare() is no longer denied by the seccomp filter (submission code may make new namespaces, e.g. "
     "unshare(CLONE_NEWUSER))",
     f"{SRC}/sandbox.cpp",
     '"pidfd_getfd", "kcmp", "unshare",',
     '"pidfd_getfd", "kcmp",'),
    # ---- GPU / Nsight checks ----
    ("Nsight Compute check: a templated kernel's rows ('void transpose<1>(...)') are not taken for the kernel: "
     "'0 launches of transpose where the grader asked for one'",
     f"{SRC}/ncu_check.cpp",
     'std::string base = name.substr(0, name.find_first_of("(<"));',
     "std::string base = name.substr(0, name.find('('));"),
    # ---- the command line ----
    ("command line: --time-limit 0 is accepted (grading with a 0-second limit per check) instead of refused as "
     "out of range (exit 2); the message for -1 says 'from 0 to 86400 seconds'",
     f"{SRC}/main.cpp",
     '"seconds each check may run (default 60; at most 86400)")\n      ->check(number_from(0, 86400, "seconds", false));',
     '"seconds each check may run (default 60; at most 86400)")\n      ->check(number_from(0, 86400, "seconds", true));'),
]
