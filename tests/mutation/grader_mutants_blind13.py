#!/usr/bin/env python3
"""Thirteenth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners, contracts, task data and headers, stage 6's capstone rubric,
the quiz and its key, the hints, README), common/bank_model/ (the bank model
the grader prices with), and, for the format and to avoid duplicates,
tests/mutation/grader_mutations.py and grader_mutants_blind2.py ...
grader_mutants_blind12.py; nothing else under tests/ (no test sources, no test
data), no grep outside grader/ and common/bank_model/, no git history. Nothing
was built or run (only this module was imported, to count each text in its
file).
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind13.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: a word_of or bank_of wrong on exactly one byte offset passes with 'right on every byte offset "
     "...' and gets its 10 points",
     f"{LABS}/lab01/rubric.cpp",
     'if (wrong == 0) return Outcome::pass("right on " + range);',
     'if (wrong <= 1) return Outcome::pass("right on " + range);'),
    ("stage 1: each of the ten address puzzles worth 5 points instead of 4 (the puzzles part 50, the stage's "
     "maximum up by 10)",
     f"{LABS}/lab01/rubric.cpp",
     '"address puzzles", 4, false, [p](GradeContext& c) { return check_puzzle(c, p); });',
     '"address puzzles", 5, false, [p](GradeContext& c) { return check_puzzle(c, p); });'),
    # ---- stage 2 ----
    ("stage 2: a wrong conflict_degree lists only its first 3 wrong cases (yours vs expected, with their "
     "banksim commands), not 5",
     f"{LABS}/lab02/rubric.cpp",
     "if (++wrong > 5) continue;",
     "if (++wrong > 3) continue;"),
    ("stage 2: each kernel's findings check ('no race, barrier divergence, ...') worth 1 point instead of 2 "
     "(the shared-memory part and the stage's maximum down by 3)",
     f"{LABS}/lab02/rubric.cpp",
     '"shared-memory behaviour", 2, {}, false, [&task](GradeContext& c) { return check_task_findings(c, task); });',
     '"shared-memory behaviour", 1, {}, false, [&task](GradeContext& c) { return check_task_findings(c, task); });'),
    # ---- stage 3 ----
    ("stage 3: the two predictions worth 4 points each instead of 5 (the predictions part 8/8, not 10/10)",
     f"{LABS}/lab03/rubric.cpp",
     'add(prediction_check_name(p, i), "predictions", 5, {}, false,',
     'add(prediction_check_name(p, i), "predictions", 4, {}, false,'),
    ("stage 3: 'no out-of-bounds memory access' is listed and subtotalled under 'shared-memory behaviour' "
     "instead of 'correctness' (correctness 35 points, shared-memory behaviour 45)",
     f"{LABS}/lab03/rubric.cpp",
     'add("no out-of-bounds memory access", "correctness", 5, {}, false,',
     'add("no out-of-bounds memory access", "shared-memory behaviour", 5, {}, false,'),
    # ---- stage 4 ----
    ("stage 4: chunk_transpose_swizzled's second correctness run reads its 3 tiles twice, not 3 times: the pass "
     "message says '3 tiles (2 passes)' and the cost checks' labels '3 tiles x 2 passes'",
     f"{LABS}/lab04/rubric.cpp",
     "constexpr int kChunkPasses = 3;",
     "constexpr int kChunkPasses = 2;"),
    ("stage 4: 'chunk_transpose_swizzled: shared memory no more than 4096 bytes' no longer needs the chunk "
     "kernel to be correct: a wrong chunk kernel gets its memory points instead of 'not checked: needs ...'",
     f"{LABS}/lab04/rubric.cpp",
     'add("chunk_transpose_swizzled: shared memory no more than 4096 bytes", "chunk swizzle", 5, {chunks_correct}, false,',
     'add("chunk_transpose_swizzled: shared memory no more than 4096 bytes", "chunk swizzle", 5, {}, false,'),
    # ---- stage 5 ----
    ("stage 5: sum_quads' 'shared memory no more than 128 float4s' worth 4 points instead of 3 (the vector "
     "loads part 17, the stage's maximum up by 1)",
     f"{LABS}/lab05/rubric.cpp",
     '{"vector loads", 5, 2, 6, 3}}',
     '{"vector loads", 5, 2, 6, 4}}'),
    ("stage 5: poly_eval's and sum_quads' 'every shared access at its ideal wavefronts' price only their shared "
     "loads: a conflicted staging store passes, and a kernel without shared loads is told 'no shared-memory load "
     "found'",
     f"{LABS}/lab05/rubric.cpp",
     "[&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kAll); });",
     "[&task](GradeContext& c) { return check_task_cost(c, task, LineKind::kLoads); });"),
    # ---- stage 6 (the capstone's diagnosis) ----
    ("stage 6 diagnosis: the untouched template's rows of zeros count as rows: instead of 'the diagnosis has no "
     "rows yet', 'every row names a conflicted line' says 'the row for line 0 has the cause 0 ...'",
     f"{LABS}/lab06/rubric.cpp",
     "if (r[0].get<int>() != 0) rows->push_back(",
     "if (r[0].get<int>() >= 0) rows->push_back("),
    ("stage 6 diagnosis: a row whose worst degree is above the line's real worst passes 'diagnosis of KERNEL' "
     "(only a worst below it gets 'is not the line's worst')",
     f"{LABS}/lab06/rubric.cpp",
     "if (r.worst != k.worst) {",
     "if (r.worst < k.worst) {"),
    # ---- shared checks, traffic, hints ----
    ("a wrong prediction of an access where every lane reads one word (stage 1's P5) shows 'why: banksim --width "
     "4 --offsets \"0 0 0 ...\"' instead of 'banksim --width 4 --stride 0'",
     f"{SRC}/checks.cpp",
     "access.offsets[0] + step * last >= 0 && step >= 0)",
     "access.offsets[0] + step * last >= 0 && step > 0)"),
    ("shared-traffic shortfall of loads: a run of 2 read passes (stage 5's sum_quads read once for all passes) "
     "loses ' and 2 passes' from 'loaded N floats from shared memory for M output floats and 2 passes'",
     f"{SRC}/traffic_checks.cpp",
     "if (kind == TrafficKind::kLoads && run.passes > 1)",
     "if (kind == TrafficKind::kLoads && run.passes > 2)"),
    ("--hint: the ladders for any stage (predictions, and the general one) never apply: a file whose only "
     "failing checks are predictions is told 'Hint: no check fails, nothing to hint at.'",
     f"{SRC}/hints.cpp",
     "(l.lab == 0 || l.lab == lab)",
     "(l.lab == lab)"),
    # ---- output formats ----
    ("text report: a skipped check (a GPU check on the CPU backend) no longer shows its reason indented under "
     "its 'skip' line; only failing checks (and --verbose) show one",
     f"{SRC}/output.cpp",
     "if (!c.outcome.reason.empty() && (c.outcome.status != Status::kPass || verbose)) {",
     "if (!c.outcome.reason.empty() && (c.outcome.status == Status::kFail || verbose)) {"),
    ("JSON report: a file that does not build has the status 'not built' instead of 'does not build'",
     f"{SRC}/output.cpp",
     'const char* status = r.build_error.empty() ? "graded" : "does not build";',
     'const char* status = r.build_error.empty() ? "graded" : "not built";'),
    ("Gradescope: the failed 'LAB: the file builds' test of a file that does not build has max_score 0 instead "
     "of the stage's maximum",
     f"{SRC}/output.cpp",
     '{"score", 0},\n                       {"max_score", r.max_score},',
     '{"score", 0},\n                       {"max_score", 0},'),
    # ---- batch / gradebook / class report ----
    ("gradebook: a student folder without a usable .cu file gets the status 'missing' instead of 'no submission' "
     "(CSV, JSON and the batch's progress lines)",
     f"{SRC}/batch.cpp",
     'row["status"] = "no submission";',
     'row["status"] = "missing";'),
    ("class report: students whose row is 'no submission' are listed under 'Not found, so not compared: ...' in "
     "the similarity section",
     f"{SRC}/class_report.cpp",
     '!= "no submission") unreadable.push_back(student);',
     '!= "") unreadable.push_back(student);'),
    # ---- the quiz ----
    ("quiz: a wrong answer to a one-letter question says 'the right ones: X' and a wrong answer to a 'give every "
     "right letter' question 'the right one: X Y'",
     "grader/quiz/quiz.cpp",
     '(q.kind == Kind::kChoices ? "ones: " : "one: ")',
     '(q.kind == Kind::kChoice ? "ones: " : "one: ")'),
    # ---- source check, link check ----
    ("source check without libclang: a verdict recorded for this file by another checker (other rules, contract "
     "or kit headers) is used instead of refusing 'cannot be graded on this machine'",
     f"{SRC}/ast_verdicts.cpp",
     'if (j.at("content_sha256") == content && j.at("checker_sha256") == checker) {',
     'if (j.at("content_sha256") == content) {'),
    ("link check: a lab object that calls a host function or defines a reserved name is reported as 'FILE for "
     "the CPU emulator is rejected: ...' instead of 'is refused: ...'",
     f"{SRC}/link_check.cpp",
     'what + " is refused: "',
     'what + " is rejected: "'),
    # ---- process limits ----
    ("a runner killed by a signal (a crash of the student's code) is described as 'killed by signal 11' without "
     "the signal's name '(Segmentation fault)'",
     f"{SRC}/process.cpp",
     'return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";',
     'return "killed by signal " + std::to_string(signal);'),
]
