#!/usr/bin/env python3
"""Blind mutants for BankLab's grader mutation check (written without reading
the tests): each a small change a student or instructor would see. Same
format as tests/mutation/grader_mutations.py: (name, file, text, replacement),
`text` occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

MUTATIONS = [
    # ---- stage rubrics and runners ----
    ("stage 1: the bytes/halves puzzles accept 32 lanes in 32 different words", f"{LABS}/lab01/rubric.cpp",
     '(name == "bytes" || name == "halves") && words.size() >= 32)',
     '(name == "bytes" || name == "halves") && words.size() > 32)'),
    ("stage 2: row_sums may use 128 rows of 66 floats of shared memory", f"{LABS}/lab02/rubric.cpp",
     'task("rows", "row_sums", "1,127,128,256,300", 128 * 65 * 4,',
     'task("rows", "row_sums", "1,127,128,256,300", 128 * 66 * 4,'),
    ("stage 2: conflict_degree never checked with all 32 lanes active (31 lane counts per stride)",
     # adapted: the runner now returns raw values only (stages20 merge); the
     # rubric's comparison loop is where the 32-lane cases are now judged
     f"{LABS}/lab02/rubric.cpp",
     "    for (int n = 1; n <= kWarpSize; ++n) {",
     "    for (int n = 1; n < kWarpSize; ++n) {"),
    ("stage 3: a 32x34 float tile passes the shared-memory bound", f"{LABS}/lab03/rubric.cpp",
     "kPaddedTileBytes = kTile * (kTile + 1) * sizeof(float);",
     "kPaddedTileBytes = kTile * (kTile + 2) * sizeof(float);"),
    ("stage 3: an out-of-bounds shared access passes 'no out-of-bounds memory access'", f"{LABS}/lab03/rubric.cpp",
     '{"out-of-bounds global access", "out-of-bounds shared access"},',
     '{"out-of-bounds global access"},'),
    ("stage 4: two neighbouring columns of a row mapped to one place pass one-to-one", f"{LABS}/lab04/rubric.cpp",
     "for (std::size_t j = start; j < i; ++j) {",
     "for (std::size_t j = start; j + 1 < i; ++j) {"),
    ("stage 5: sum_quads reading shared memory once for all passes meets the traffic need",
     f"{LABS}/lab05/rubric.cpp",
     "return TrafficNeed{label, {}, outputs, 16 * outputs, 16 * outputs * passes, passes};",
     "return TrafficNeed{label, {}, outputs, 16 * outputs, 16 * outputs, passes};"),
    # ---- grader/src/checks.cpp ----
    ("a shared line with unpriced warp instructions passes the cost check", f"{SRC}/checks.cpp",
     "    if (t.unpriced > 0) {\n      all_ideal = false;\n",
     "    if (t.unpriced > 0) {\n"),
    ("a runner answer with fewer runs than the shapes asked for is accepted", f"{SRC}/checks.cpp",
     "  if (i < asked.size()) {\n    const bool stopped_early =",
     "  if (i == 0 && i < asked.size()) {\n    const bool stopped_early ="),
    # ---- task_checks.cpp ----
    ("stage 2/5: the cost check passes a kernel that did not finish on a run", f"{SRC}/task_checks.cpp",
     'if (!run["report"]["completed"].get<bool>()) {\n      return Outcome::fail("could not check: the kernel did not finish',
     'if (false) {\n      return Outcome::fail("could not check: the kernel did not finish'),
    ("stage 2/5: 'every shared access' cost ignores a shortfall of shared loads", f"{SRC}/task_checks.cpp",
     # adapted: shortfall() gained the seed argument after this was written
     "return with_traffic(cost, stores.empty() ? shortfall(task, a, ctx.seed(), TrafficKind::kLoads) : stores);",
     "return with_traffic(cost, stores);"),
    # ---- traffic_checks.cpp ----
    ("a kernel loading half the shared bytes its task needs passes the traffic check", f"{SRC}/traffic_checks.cpp",
     "t.load_bytes < load_need;",
     "t.load_bytes < load_need / 2;"),
    # ---- raw_answers.cpp ----
    ("a compare-and-swap atomic priced at 1 wavefront per lane on a bank instead of 2", f"{SRC}/raw_answers.cpp",
     "cost.wavefronts = 2 * busiest;",
     "cost.wavefronts = busiest;"),
    ("a runner output with more bytes than expected is judged instead of refused", f"{SRC}/raw_answers.cpp",
     "  if (got.size() != expected.size()) {",
     "  if (got.size() < expected.size()) {"),
    # ---- output.cpp ----
    ("text: a part's total counts its skipped (GPU) checks in its maximum", f"{SRC}/output.cpp",
     "      if (c.outcome.status != Status::kSkip) {\n        part_score += c.score;",
     "      if (true) {\n        part_score += c.score;"),
    ("JSON: a skipped check has the status \"fail\"", f"{SRC}/output.cpp",
     ': "skip";',
     ': "fail";'),
    # adapted: a skipped check now carries no status and is hidden from
    # students (class22 merge); the same bug now is showing it to them
    ("Gradescope: a skipped check shown to students", f"{SRC}/output.cpp",
     '{"visibility", skipped ? std::string("hidden") : visibility}',
     '{"visibility", visibility}'),
    ("JUnit: skipped checks counted as failures in the testsuite", f"{SRC}/output.cpp",
     "failures += c.outcome.status == Status::kFail;",
     "failures += c.outcome.status != Status::kPass;"),
    # ---- batch.cpp ----
    ("batch: a submission changed since the last run keeps its old grade", f"{SRC}/batch.cpp",
     'row->value("sha", "") == content_hash(all[i].file) && ',
     ""),
    ("batch: a submission that does not build is reported as 'grader failed'", f"{SRC}/batch.cpp",
     "if (r.exited && r.exit_code == 2) {",
     "if (r.exited && r.exit_code == 3) {"),
    # ---- the quiz ----
    ("quiz: a question answered twice is accepted (the last answer counts)", "grader/quiz/quiz.cpp",
     "if (line_of.count(number)) {",
     "if (false) {"),
    ("quiz: an answer to the last question (21) refused as 'no question 21'", "grader/quiz/quiz.cpp",
     "if (number < 1 || number > static_cast<int>(questions().size())) {",
     "if (number < 1 || number >= static_cast<int>(questions().size())) {"),
    # ---- source and integrity checks ----
    ("source check: a file with a single refused construct (one host function, one asm) is accepted",
     f"{SRC}/source_check.cpp",
     "if (!ast.refused.empty()) refuse(ast.refused);",
     "if (ast.refused.size() > 1) refuse(ast.refused);"),
    ("source check: a cast of a small integer (16) to a pointer is accepted", f"{SRC}/ast_check.cpp",
     "clang_EvalResult_getAsLongLong(value) == 0;",
     "clang_EvalResult_getAsLongLong(value) <= 4096;"),
    ("link check: a lab object defining an extern \"C\" function (write, malloc) is accepted",
     f"{SRC}/link_check.cpp",
     "if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_NOTYPE) return true;",
     "if (type == STT_GNU_IFUNC || type == STT_NOTYPE) return true;"),
    ("contract: stage 1's declarations not checked (a missing word_of fails the build, not its checks)",
     f"{SRC}/contract.cpp",
     "return found == registry().end() ? nullptr : &found->second;",
     "return found == registry().end() || lab == 1 ? nullptr : &found->second;"),
    # ---- sandbox.cpp and process.cpp ----
    ("sandbox: bubblewrap keeps the network and the process namespace (a runner can reach the network and see others)",
     f"{SRC}/sandbox.cpp",
     '"/usr/bin/bwrap", "--unshare-all", "--unshare-user",',
     '"/usr/bin/bwrap", "--unshare-user",'),
    ("process limit doubled: a runner may start 64 processes before it is stopped", f"{SRC}/process.cpp",
     "static_cast<int>(process_tree(pid, max_processes).size()) > max_processes) {",
     "static_cast<int>(process_tree(pid, 2 * max_processes).size()) > 2 * max_processes) {"),
    # ---- main.cpp (CLI) ----
    ("a lab file of 3 MiB is built instead of refused (limit 1 MiB)", f"{SRC}/main.cpp",
     "constexpr std::uintmax_t kMaxLabFileBytes = std::uintmax_t{1} << 20;",
     "constexpr std::uintmax_t kMaxLabFileBytes = std::uintmax_t{1} << 22;"),
    ("exit status 0 for a stage graded below full marks", f"{SRC}/main.cpp",
     "if (!r.full_marks()) return 1;",
     "if (!r.full_marks()) return 0;"),
]

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind2.py --list
