#!/usr/bin/env python3
"""Fourteenth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners, contracts, task data and headers, stage 6's capstone rubric,
the quiz and its key, the hints, README), common/bank_model/ (the bank model
the grader prices with), and, for the format and to avoid duplicates,
tests/mutation/grader_mutations.py and grader_mutants_blind2.py ...
grader_mutants_blind13.py; nothing else under tests/ (no test sources, no test
data), no grep outside grader/ and common/bank_model/, no git history. Nothing
was built or run (only this module was imported, to count each text in its
file).
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind14.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: each of the ten predictions worth 2 points instead of 3 (the predictions part 20, the stage's "
     "maximum down by 10)",
     f"{LABS}/lab01/rubric.cpp",
     'add("prediction " + all[i].id + ": " + question, "predictions", 3, false,',
     'add("prediction " + all[i].id + ": " + question, "predictions", 2, false,'),
    ("stage 1: puzzle 7 ('one bank four words') answered with 5 or more words in its one bank is told 'yours: 5 "
     "wavefronts, expected: 4' instead of 'exactly 4 different words wanted; yours touch 5'",
     f"{LABS}/lab01/rubric.cpp",
     'if (name == "one bank four words" && words.size() != 4)',
     'if (name == "one bank four words" && words.size() < 4)'),
    # ---- stage 2 ----
    ("stage 2: transpose16's shared-memory bound is 16x17 floats (1088 bytes) while its name still says 'a 16x18 "
     "float tile': a conflict-free 16x18 tile (1152 bytes) fails 'shared memory no more than ...'",
     f"{LABS}/lab02/rubric.cpp",
     "16 * 18 * 4",
     "16 * 17 * 4"),
    ("stage 2: 'conflict_degree on every stride 0-1024 and 1-32 active lanes' worth 15 points instead of 10 (the "
     "formula part 15, the stage's maximum up by 5)",
     f"{LABS}/lab02/rubric.cpp",
     '"the formula", 10, {}, false, check_degree);',
     '"the formula", 15, {}, false, check_degree);'),
    # ---- stage 3 ----
    ("stage 3: 'shared memory no more than a 32x33 float tile' is judged on the runs that answered: a kernel whose "
     "large or random run got no answer (a time-out) passes it instead of failing with that run's error",
     f"{LABS}/lab03/rubric.cpp",
     "  if (runs.failed != nullptr) return not_answered(*runs.failed);\n  std::size_t bytes = 0;",
     "  if (runs.reports.empty() && runs.failed != nullptr) return not_answered(*runs.failed);\n"
     "  std::size_t bytes = 0;"),
    ("stage 3: without a variant each prediction's message starts 'your variant: the column read of float "
     "tile[32][32]; ...', and a student with a variant no longer sees their tile named",
     f"{LABS}/lab03/rubric.cpp",
     'if (p.variant) outcome.reason = "your variant: " + q.question + "; " + outcome.reason;',
     'if (!p.variant) outcome.reason = "your variant: " + q.question + "; " + outcome.reason;'),
    # ---- stage 4 ----
    ("stage 4: the seed-drawn chunk run reads its tiles 1 to 4 times instead of 2 to 4: for the same seed "
     "'correct on ... N tiles (P passes)' names another pass count, and some seeds test no multi-pass random run",
     f"{LABS}/lab04/rubric.cpp",
     "const int passes = std::uniform_int_distribution<int>(2, 4)(rng);",
     "const int passes = std::uniform_int_distribution<int>(1, 4)(rng);"),
    ("stage 4, on the GPU: 'transpose_swizzled at least 1.5x faster than the conflicted tile' passes at a 1.4x "
     "speed-up ('expected at least 1.400')",
     f"{LABS}/lab04/rubric.cpp",
     "conflicted / student, 1.5, true);",
     "conflicted / student, 1.4, true);"),
    # ---- stage 5 ----
    ("stage 5: transpose_double's and transpose_half's 'tile write at its ideal wavefronts' prices the tile reads "
     "too: a kernel with a conflicted read and a clean write loses the write's 3 points as well",
     f"{LABS}/lab05/rubric.cpp",
     "[&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kStores); });",
     "[&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kAll); });"),
    ("stage 5: a lane at byte offset 0 is taken as inactive in the predictions: P1-P4 (every lane on one address) "
     "expect 0 wavefronts, so the right answers fail ('yours: 1, expected: 0 wavefronts')",
     f"{LABS}/lab05/rubric.cpp",
     "offsets[lane] = o < 0 ? kInactive : o;",
     "offsets[lane] = o <= 0 ? kInactive : o;"),
    # ---- stage 6 (the capstone's diagnosis) ----
    ("stage 6 diagnosis: two rows for one conflicted line (the first one right) pass 'diagnosis of KERNEL' instead "
     "of 'line N has 2 rows: give each line one row'",
     f"{LABS}/lab06/rubric.cpp",
     "if (named.size() > 1) {",
     "if (named.size() > 2) {"),
    ("stage 6 diagnosis: a row naming a line without a shared access gets a second problem, 'line N of original.cu "
     "costs its ideal: it has no conflict', under 'has no shared-memory access'",
     f"{LABS}/lab06/rubric.cpp",
     "} else if (!conflicted) {",
     "} if (!conflicted) {"),
    # ---- output formats ----
    ("text/Gradescope score line of a file that does not build on the CPU backend: its GPU checks' points are said "
     "to be 'points of checks that do not apply to this file skipped', not 'points of GPU checks skipped'",
     f"{SRC}/output.cpp",
     "    if (!r.build_error.empty()) gpu = r.skipped_points;  // nothing ran: only GPU checks were left out\n",
     ""),
    ("Gradescope: the failed 'LAB: the file builds' test of a file that does not build is hidden from the student "
     "until after the due date (visibility 'after_due_date', not 'visible')",
     f"{SRC}/output.cpp",
     '{"visibility", "visible"}});',
     '{"visibility", "after_due_date"}});'),
    ("text report of the quiz: each question's line shows a time, 'Q1 banks of shared memory: pass (0.0s)', as a "
     "stage's checks do",
     f"{SRC}/output.cpp",
     "if (c.outcome.status != Status::kSkip && r.rubric->lab != 0)",
     "if (c.outcome.status != Status::kSkip)"),
    # ---- batch / gradebook / class report ----
    ("gradebook: a submission that does not build keeps only the first 10 lines of the compiler's message (the "
     "gradebook's CSV and JSON message, the class report), not 20",
     f"{SRC}/batch.cpp",
     "std::string message = first_lines(said, 20);",
     "std::string message = first_lines(said, 10);"),
    ("class report: a failure message shared by 7 students lists 5 of them and '... (1 more)' (one name dropped "
     "from the count), instead of 6 and '... (1 more)'",
     f"{SRC}/class_report.cpp",
     "for (std::size_t i = 0; i < names.size() && i < 6; ++i)",
     "for (std::size_t i = 0; i < names.size() && i < 5; ++i)"),
    # ---- the quiz ----
    ("quiz: an English answers sheet with Chinese characters in an answer line (not a comment) is graded in "
     "Chinese (messages such as '你的答案：...')",
     "grader/quiz/quiz.cpp",
     "if (!text.empty() && text[0] == '#' && holds_han(text)) return Language::kChinese;",
     "if (!text.empty() && holds_han(text)) return Language::kChinese;"),
    ("quiz: a wrong answer to Q7 or Q23 (16 active lanes) shows 'see it: banksim --width 4 --stride N ...' without "
     "'--lanes 0-15', a command that prices a full warp",
     "grader/quiz/quiz.cpp",
     "if (active.size() != kWarpSize) {",
     "if (active.size() < 16) {"),
    # ---- source check, sandbox, process limits ----
    ("source check: a lab file that includes solutions/... or build/... below its folder is told the file lies "
     "'outside its own folder: a lab file may include ...', and one that includes another folder's file that "
     "'solutions/ and build/ are hidden from it'",
     f"{SRC}/source_check.cpp",
     "if (under(named, fs::path(absolute).parent_path())) {",
     "if (!under(named, fs::path(absolute).parent_path())) {"),
    ("sandbox (bubblewrap): the root of the view is left writable: code under test can create files and folders "
     "at / (e.g. /x) that the report's 'read-only view' says it cannot",
     f"{SRC}/sandbox.cpp",
     '    add({"--remount-ro", "/"});\n',
     ""),
    ("process limits under bubblewrap: bubblewrap's own processes count against the 32: a program that starts "
     "31 processes is stopped 'for starting more than 32 processes (a fork loop?)'",
     f"{SRC}/process.cpp",
     "options.max_processes == 0 ? 0 : options.max_processes + (launch ? launch->extra_processes() : 0);",
     "options.max_processes == 0 ? 0 : options.max_processes;"),
    # ---- the bank model the grader prices with ----
    ("bank model: 8- and 16-byte stores whose lane pairs share an address are merged like loads: stage 5's P3 "
     "(every lane stores one double) expects 1 wavefront instead of 2 and P4 (one float4) 2 instead of 4",
     "common/bank_model/src/bank_model.cpp",
     "if (arch.load_pair_merge && access.op == MemOp::kLoad && access.width_bytes > arch.bank_width_bytes) {",
     "if (arch.load_pair_merge && access.width_bytes > arch.bank_width_bytes) {"),
    ("bank model (the grader's pricing of the runner's patterns): an empty lane group of an 8- or 16-byte warp "
     "instruction counts in its ideal: sum_quads' float4 staging store on its 1-quad run reads '1 wavefront (ideal 4)', "
     "and that surplus can hide a line's conflicts",
     "common/bank_model/src/bank_model.cpp",
     "    if (n == 0) continue;\n",
     ""),
]
