#!/usr/bin/env python3
"""Ninth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners and headers, the quiz, README), common/bank_model/ (the
bank model the grader prices with), and, for the format and to avoid
duplicates, tests/mutation/grader_mutations.py and grader_mutants_blind2.py
... grader_mutants_blind8.py; nothing else under tests/, no git history.
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind9.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: a puzzle offset on the shared array's last element (byte 4092 of a 4-byte load, 4095 of a byte "
     "load) refused as 'outside the 4096-byte shared array'",
     f"{LABS}/lab01/puzzles.hpp",
     "if (offset < 0 || offset > kSharedBytes - width_bytes) return",
     "if (offset < 0 || offset >= kSharedBytes - width_bytes) return"),
    ("stage 1: word_of's and bank_of's messages say 'every byte offset from 0 to 232448', one past the last "
     "offset checked (232447)",
     f"{LABS}/lab01/rubric.cpp",
     'const std::string range = "every byte offset from 0 to " + std::to_string(lab01::kOffsetsChecked - 1) +',
     'const std::string range = "every byte offset from 0 to " + std::to_string(lab01::kOffsetsChecked) +'),
    # ---- stage 2 ----
    ("stage 2: a wrong conflict_degree's banksim command names one lane too many ('--lanes 0-8' for 8 active "
     "lanes, '--lanes 0-32' for a full warp)",
     f"{LABS}/lab02/rubric.cpp",
     '<< "   (banksim --width 4 --stride " << stride << " --lanes 0-" << n - 1 << ")";',
     '<< "   (banksim --width 4 --stride " << stride << " --lanes 0-" << n << ")";'),
    ("stage 2 with --variant-from: 'your variant: ...' put before the six predictions that do not vary (P1, P2, "
     "P6-P9) and left off the four that do (P3, P4, P5, P10)",
     f"{LABS}/lab02/rubric.cpp",
     "if (p.variant && prediction_name(p, q) != prediction_name(Params{}, q)) {",
     "if (p.variant && prediction_name(p, q) == prediction_name(Params{}, q)) {"),
    # ---- stage 3 ----
    ("stage 3: every passing findings check ('no out-of-bounds ...', 'no shared-memory race', ...) ends with "
     "'; no answer for  (graded by the correctness checks)', though every run answered",
     f"{LABS}/lab03/rubric.cpp",
     "if (outcome.status == Status::kPass && !runs.missing.empty()) {",
     "if (outcome.status == Status::kPass) {"),
    ("stage 3: 'transpose of partial tiles: 1x1, 31x33, 33x31' never runs the 1x1 matrix (a kernel wrong or "
     "out of bounds only on 1x1 passes; its message says 'correct on 31x33,33x31')",
     f"{LABS}/lab03/rubric.cpp",
     'const std::string kPartial = "1x1,31x33,33x31";',
     'const std::string kPartial = "31x33,33x31";'),
    # ---- stage 4 ----
    ("stage 4: a swizzle that does not spread a column is reported as 'column 5 of rows 0-32' (swizzle_chunk: "
     "'rows 0-8'), one row past the group it checked",
     f"{LABS}/lab04/rubric.cpp",
     "<< start + group - 1 << \" maps to \"",
     "<< start + group << \" maps to \""),
    ("stage 4: a wrong chunk_transpose_swizzled says '... of 256 floats wrong' for a 1-tile run of 1024 floats "
     "(the count of float4 chunks given as floats)",
     f"{LABS}/lab04/rubric.cpp",
     'out << verdict["mismatches"] << " of " << expected.size() << " floats wrong";',
     'out << verdict["mismatches"] << " of " << expected.size() / 4 << " floats wrong";'),
    # ---- stage 5 ----
    ("stage 5: prediction P10 ('half tile[64][65]') priced as half tile[64][64] (32 wavefronts): the right "
     "answer, 2, marked wrong",
     f"{LABS}/lab05/predictions.hpp",
     "case 9: return 2LL * 65 * lane;",
     "case 9: return 2LL * 64 * lane;"),
    ("stage 5: poly_eval may keep two copies of the coefficients in shared memory (64 bytes pass 'shared memory "
     "no more than one copy of the 8 coefficients', and its message says 'at most: 64')",
     f"{LABS}/lab05/rubric.cpp",
     '{"poly", "poly_eval", "1,127,128,1000", 8 * 4, "one copy of the 8 coefficients",',
     '{"poly", "poly_eval", "1,127,128,1000", 16 * 4, "one copy of the 8 coefficients",'),
    # ---- shared checks ----
    ("findings: every finding a check names reads '... [1 times]' (a race, an out-of-bounds access found once "
     "gets a count it should not show)",
     f"{SRC}/checks.cpp",
     'if (f["count"].get<long long>() > 1) out << " [" << f["count"] << " times]";',
     'if (f["count"].get<long long>() >= 1) out << " [" << f["count"] << " times]";'),
    ("stage 2/4/5: a wrong output element named by its byte offset, not its index (out[12] for element 3 of "
     "row_sums; stage 4's chunk named in the wrong tile and row)",
     f"{SRC}/raw_answers.cpp",
     '{"index", i / size},',
     '{"index", i},'),
    ("stage 2/5: a run the emulator stopped (an endless loop or a deadlock after every output was written) "
     "counts as correct: the correctness points kept, no 'the kernel did not finish'",
     f"{SRC}/task_checks.cpp",
     'if (run["mismatches"].get<long long>() == 0 && !stopped) continue;',
     'if (run["mismatches"].get<long long>() == 0) continue;'),
    # ---- output formats ----
    ("text: a score with nothing skipped (the quiz, or a GPU run) reads 'Score: 21/21 (out of the 21 points "
     "checked on the  backend; skipped)'",
     f"{SRC}/output.cpp",
     "if (r.skipped_points > 0) {",
     "if (r.skipped_points >= 0) {"),
    ("JUnit: a testsuite's tests count leaves out its skipped checks (tests=\"30\" skipped=\"4\" for 34 "
     "testcases on the CPU backend)",
     f"{SRC}/output.cpp",
     '"\\" tests=\\"" << r.results.size() << "\\" failures=\\""',
     '"\\" tests=\\"" << r.results.size() - skipped << "\\" failures=\\""'),
    ("PrairieLearn: the GPU checks skipped on the CPU backend listed as tests of 0 points out of theirs (the "
     "student sees failed checks they cannot act on)",
     f"{SRC}/output.cpp",
     "      if (c.outcome.status == Status::kSkip) continue;  // counts nothing; a PrairieLearn student cannot act on it\n",
     ""),
    # ---- batch, gradebook, class report ----
    ("gradebook CSV: a field with a comma (a check named 'transpose of partial tiles: 1x1, 31x33, 33x31', a "
     "message) left unquoted: the row's columns shift",
     f"{SRC}/batch.cpp",
     'if (text.find_first_of(",\\"\\r\\n") == std::string::npos) return text;',
     'if (text.find_first_of("\\"\\r\\n") == std::string::npos) return text;'),
    ("gradebook CSV: the message column lists the skipped checks too ('NAME: ' for every GPU check of a CPU "
     "batch), not only the checks that lost points",
     f"{SRC}/batch.cpp",
     'if (c.value("status", "") != "fail") continue;',
     'if (c.value("status", "") == "pass") continue;'),
    ("class report: the mean score divided by every row, those left out of the statistics (no submission, "
     "grader failed) included (graded 100% and 50% beside a 'no submission': 50%, not 75%)",
     f"{SRC}/class_report.cpp",
     "number(100 * sum / static_cast<double>(sorted.size()))",
     "number(100 * sum / static_cast<double>(rows.size()))"),
    # ---- the quiz ----
    ("quiz: the answers file's last line is never read (a sheet whose last line answers Q21 gets 'not "
     "answered' for it, one point less)",
     "grader/quiz/quiz.cpp",
     "for (int n = 1; n <= static_cast<int>(lines.size()); ++n) {",
     "for (int n = 1; n < static_cast<int>(lines.size()); ++n) {"),
    ("quiz: a question answered twice names its own line as the other one ('question 3 is answered twice (also "
     "on line 9)' on line 9), not the earlier line",
     "grader/quiz/quiz.cpp",
     "const std::string other = std::to_string(line_of[number]);",
     "const std::string other = std::to_string(n);"),
    # ---- integrity: link check, source check ----
    ("link check: a lab object defining a function in namespace harness (the runner's own, e.g. "
     "harness::emit_answer) accepted: the lab file takes the runner's place",
     f"{SRC}/link_check.cpp",
     '{"std", "__gnu_cxx", "__cxxabiv1", "banklab", "harness", "nlohmann"};',
     '{"std", "__gnu_cxx", "__cxxabiv1", "banklab", "nlohmann"};'),
    ("source check: a call to std::clamp refused as 'from the C or C++ library' (std::min and std::max still "
     "accepted)",
     f"{SRC}/ast_check.cpp",
     '"std::min", "std::max", "std::swap", "std::clamp", "std::move",',
     '"std::min", "std::max", "std::swap", "std::move",'),
    # ---- process limits ----
    ("limits: a run stopped for memory says 'more than 4.29 GiB of memory' for --memory-limit 4 (bytes divided "
     "by 10^9, not 2^30)",
     f"{SRC}/process.cpp",
     'std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(memory_limit) / (1u << 30));',
     'std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(memory_limit) / 1e9);'),
]
