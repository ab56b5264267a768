#!/usr/bin/env python3
"""Twelfth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners, contracts, task data and headers, stage 6's capstone rubric,
the quiz, the hints, README), common/bank_model/ (the bank model the grader
prices with), and, for the format and to avoid duplicates,
tests/mutation/grader_mutations.py and grader_mutants_blind2.py ...
grader_mutants_blind11.py; nothing else under tests/ (no test sources, no test
data), no git history. (One grep for a report field's name over common/ also
showed a few lines of common/emulator/src/session.cpp; nothing here depends on
them.) Nothing was built or run.
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind12.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: the ten prediction checks keep the question's final period in their names ('prediction P1: float "
     "s[]; lane l reads s[l].'): every report and the gradebook's column names change",
     f"{LABS}/lab01/rubric.cpp",
     "if (!question.empty() && question.back() == '.') question.pop_back();",
     "if (!question.empty() && question.back() == ';') question.pop_back();"),
    ("stage 1: a wrong word_of or bank_of lists only its first 3 wrong offsets (yours vs expected), not 5",
     f"{LABS}/lab01/rubric.cpp",
     "if (++wrong <= 5) first <<",
     "if (++wrong <= 3) first <<"),
    # ---- stage 2 ----
    ("stage 2: each of the ten predictions worth 3 points instead of 2 (the predictions part 30, the stage's "
     "maximum up by 10)",
     f"{LABS}/lab02/rubric.cpp",
     'add(prediction_name(p, all[i]), "predictions", 2, {}, false, [p, i](GradeContext& c) {',
     'add(prediction_name(p, all[i]), "predictions", 3, {}, false, [p, i](GradeContext& c) {'),
    ("stage 2 with --variant-from: prediction P10's check is named 'lane l reads word R l (R = "
     "BANKLAB_P10_STRIDE)', losing 'only lanes 0-15 are active' (a variant gradebook's P10 column renamed)",
     f"{LABS}/lab02/rubric.cpp",
     'question = (q.id == "P10" ?',
     'question = (q.id == "P1" ?'),
    # ---- stage 3 ----
    ("stage 3: 'shared memory no more than a 32x33 float tile' no longer needs the 32x32 transpose to pass: a "
     "wrong transpose gets its memory points instead of 'not checked: needs ...'",
     f"{LABS}/lab03/rubric.cpp",
     'add("shared memory no more than a 32x33 float tile", "shared-memory behaviour", 5, {square}, false,',
     'add("shared memory no more than a 32x33 float tile", "shared-memory behaviour", 5, {}, false,'),
    ("stage 3: a transpose that reads tile elements it never wrote passes 'no uninitialised shared read' (the "
     "check looks for a finding kind the emulator never reports)",
     f"{LABS}/lab03/rubric.cpp",
     '{"uninitialised shared read"},',
     '{"uninitialised global read"},'),
    # ---- stage 4 ----
    ("stage 4: 'swizzle spreads each logical column over 32 banks' checks groups of 16 rows only: a swizzle whose "
     "two halves of a column share banks passes, and the messages speak of 'chunks' and '16 places'",
     f"{LABS}/lab04/rubric.cpp",
     "kTile, kTile, false, kTile); });",
     "kTile, kTile, false, kTile / 2); });"),
    ("stage 4 on the GPU: transpose_swizzled 20% slower than the padded tile passes 'within 10% of the padded "
     "tile' (its message says 'expected at most 1.250')",
     f"{LABS}/lab04/rubric.cpp",
     'student / padded, 1.10, false);',
     'student / padded, 1.25, false);'),
    # ---- stage 5 ----
    ("stage 5: the 'tile write at its ideal wavefronts' checks of transpose_double and transpose_half worth 4 "
     "points instead of 3 (both tile parts and the stage's maximum up)",
     f"{LABS}/lab05/rubric.cpp",
     "p.part, 3, {correct}, false,",
     "p.part, 4, {correct}, false,"),
    ("stage 5: each of the ten predictions worth 1 point instead of 2 (the predictions part 10, the stage's "
     "maximum down by 10)",
     f"{LABS}/lab05/rubric.cpp",
     '"predictions", 2, {}, false, [i](GradeContext& c) {',
     '"predictions", 1, {}, false, [i](GradeContext& c) {'),
    # ---- stage 6 (the capstone's diagnosis) ----
    ("stage 6 diagnosis: a row giving the cause DATA (4) is refused by 'every row names a conflicted line ... and "
     "a cause of the list' with 'has the cause 4: use one of STRIDE, COLUMN, WIDE, DATA'",
     f"{LABS}/lab06/rubric.cpp",
     "if (r.cause < kStride || r.cause > kData) {",
     "if (r.cause < kStride || r.cause >= kData) {"),
    ("stage 6 diagnosis key: every shared line of original.cu counts as conflicted, also those at their ideal: a "
     "right diagnosis fails with 'N conflicted lines of ... have no row'",
     f"{LABS}/lab06/rubric.cpp",
     'if (l["wavefronts"].get<long long>() <= l["ideal_wavefronts"].get<long long>()) continue;',
     'if (l["wavefronts"].get<long long>() < l["ideal_wavefronts"].get<long long>()) continue;'),
    # ---- shared checks, Nsight Compute, hints ----
    ("per-line cost messages say '(costs traced on N of N blocks, chosen from the seed)' beside every run, also "
     "runs whose blocks were all traced",
     f"{SRC}/checks.cpp",
     "if (traced > 0 && traced < blocks) {",
     "if (traced > 0 && traced <= blocks) {"),
    ("Nsight Compute check on nvcc's code: a kernel whose shared atomic wavefronts differ from the emulator's "
     "passes 'Nsight Compute shared wavefronts match the emulator' (only loads and stores compared)",
     f"{SRC}/ncu_wavefronts.cpp",
     "same = same && measured[1] == predicted.stores && measured[2] == predicted.atomics;",
     "same = same && measured[1] == predicted.stores;"),
    ("--hint after a CPU run where every check passed gives a hint for a skipped GPU check (stage 1: 'puzzle "
     "loads take their wavefronts in cycles on the GPU') instead of 'Hint: no check fails, nothing to hint at.'",
     f"{SRC}/hints.cpp",
     "if (r.outcome.status != Status::kFail) continue;",
     "if (r.outcome.status == Status::kPass) continue;"),
    # ---- output formats ----
    ("PrairieLearn results: a passing check's message reads 'passed' instead of 'OK'",
     f"{SRC}/output.cpp",
     'std::string("OK")',
     'std::string("passed")'),
    ("text report: a CPU run whose only skipped checks are the GPU's ends its score line with '... points of GPU "
     "checks and  skipped)' (a dangling 'and')",
     f"{SRC}/output.cpp",
     '(other > 0 ? " and " : "")',
     '(other >= 0 ? " and " : "")'),
    # ---- batch / gradebook / class report ----
    ("gradebook CSV: the header's third column is 'max' instead of 'max_score'",
     f"{SRC}/batch.cpp",
     'csv << "student,score,max_score,status,backend"',
     'csv << "student,score,max,status,backend"'),
    ("class report: the failure table shows only the 2 most common messages of each check, not 3",
     f"{SRC}/class_report.cpp",
     "const std::size_t shown = std::min<std::size_t>(top.size(), 3);",
     "const std::size_t shown = std::min<std::size_t>(top.size(), 2);"),
    # ---- the quiz ----
    ("quiz: every question worth 2 points instead of 1 (a full sheet scores 48/48, not 24/24)",
     "grader/quiz/quiz.cpp",
     "c.points = 1;",
     "c.points = 2;"),
    # ---- source check, link check, nvcc step ----
    ("declaration check: a file without a kernel of the contract is told 'the file has no function `NAME`' "
     "instead of 'no kernel' (also 'must be a function (not a template ...)')",
     f"{SRC}/ast_check.cpp",
     '      return "kernel";',
     '      return "function";'),
    ("link check: a lab object defining a global variable named environ is accepted instead of refused as "
     "'defines `environ`, a name of the C library ...'",
     f"{SRC}/link_check.cpp",
     '{"environ", "stdin",  "stdout",',
     '{"stdin",  "stdout",'),
    ("nvcc step: a file nvcc refuses is reported as the machine's fault ('nothing is wrong with FILE as far as the "
     "compiler said') instead of 'fix the error above in FILE'",
     f"{SRC}/nvcc_check.cpp",
     '"that nvcc accepts it:\\n$ " + shell_quote(cmd),\n                     true);',
     '"that nvcc accepts it:\\n$ " + shell_quote(cmd),\n                     false);'),
    # ---- sandbox ----
    ("sandbox: /dev/urandom is not in a confined process's view (bubblewrap does not bind it, Landlock does not "
     "allow it): submission code and runners cannot read it",
     f"{SRC}/sandbox.cpp",
     '"/dev/full", "/dev/random", "/dev/urandom"};',
     '"/dev/full", "/dev/random"};'),
]
