#!/usr/bin/env python3
"""Seventeenth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners, contracts, task data and headers, stage 6's capstone rubric,
the quiz and its key, the hints, README), common/bank_model/ (the bank model
the grader prices with), and, for the format and to avoid duplicates,
tests/mutation/grader_mutations.py and grader_mutants_blind2.py ...
grader_mutants_blind16.py; nothing else under tests/ (no test sources, no test
data), no grep outside grader/ and common/bank_model/, no git history. Nothing
was built or run (only this module was imported, to count each text in its
file).
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind17.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: prediction P4 (float tile[32][32], lane l reads tile[l][5]) priced as a 33-float row (1 wavefront): "
     "the right answer, 32, is marked wrong",
     f"{LABS}/lab01/rubric.cpp",
     '[](int l) { return 4 * (32 * l + 5); }),',
     '[](int l) { return 4 * (33 * l + 5); }),'),
    # ---- stage 2 ----
    ("stage 2: 'conflict_degree equals the GPU's cycles per instruction' worth 6 points instead of 4 (--list's "
     "total up by 2; on the CPU backend 2 more points of GPU checks skipped)",
     f"{LABS}/lab02/rubric.cpp",
     '"on the GPU", 4, {}, true, check_degree_on_gpu);',
     '"on the GPU", 6, {}, true, check_degree_on_gpu);'),
    # ---- stage 3 ----
    ("stage 3: 'shared memory no more than a 32x33 float tile' takes the smallest of 0 and each run's size: "
     "every kernel passes with 'yours: 0 bytes of __shared__ memory' (a 32x64 tile too)",
     f"{LABS}/lab03/rubric.cpp",
     'bytes = std::max(bytes, r.report["shared_bytes"]',
     'bytes = std::min(bytes, r.report["shared_bytes"]'),
    # ---- stage 4 ----
    ("stage 4: transpose_swizzled's shared-traffic need counts a WxH run as WxW elements: a right kernel fails "
     "the tile write/read and memory checks on 33x31 and wide random shapes ('stored 1023 floats ... at least "
     "1089 expected')",
     f"{LABS}/lab04/rubric.cpp",
     'const long long elements = std::stoll(r.label.substr(0, x)) * std::stoll(r.label.substr(x + 1));',
     'const long long elements = std::stoll(r.label.substr(0, x)) * std::stoll(r.label.substr(0, x));'),
    # ---- stage 5 ----
    ("stage 5: 'KERNEL: shared memory no more than ...' no longer needs the kernel to be correct: a wrong kernel "
     "is graded on its size (and may get the points) instead of 'not checked: needs ... to pass first'",
     f"{LABS}/lab05/rubric.cpp",
     'p.part, p.memory, {correct}, false,',
     'p.part, p.memory, {}, false,'),
    # ---- stage 6 (the capstone) ----
    ("stage 6: the diagnosis key gives gemm_tiled's a_tile[threadIdx.x] line the cause WIDE: a right diagnosis "
     "(COLUMN) fails 'diagnosis of gemm_tiled' with 'the cause COLUMN does not explain its worst warp "
     "instruction', and WIDE passes",
     f"{LABS}/lab06/rubric.cpp",
     '{"a_tile[threadIdx.x]", {kColumn}},',
     '{"a_tile[threadIdx.x]", {kWide}},'),
    ("stage 6: the runner no longer poisons the outputs (it zeroes them): a histogram32 that never writes its "
     "empty bins passes 'is correct on ...', and unwritten outputs read 0 instead of 'never written'",
     f"{LABS}/lab06/cpu_runner.cpp",
     'std::memset(device, harness::kPoisonByte, count * sizeof(T));',
     'std::memset(device, 0, count * sizeof(T));'),
    # ---- shared checks ----
    ("cost checks (stages 3-6): a line whose lanes take turns (conflict-free groups split by __syncwarp or a "
     "barrier, a conflict when joined) no longer fails: the check passes with its points (the explanation only "
     "with --verbose)",
     f"{SRC}/checks.cpp",
     '    if (t.turns_wavefronts > t.turns_ideal) {\n      all_ideal = false;\n',
     '    if (t.turns_wavefronts > t.turns_ideal) {\n'),
    ("stages 2, 5 and 6: 'KERNEL: no race, barrier divergence, uninitialised, misaligned or out-of-bounds "
     "access' ignores misaligned shared accesses: a kernel with a misaligned 8-byte shared access passes it",
     f"{SRC}/task_checks.cpp",
     '"out-of-bounds shared access", "misaligned shared access",',
     '"out-of-bounds shared access",'),
    # ---- running a rubric ----
    ("a contract item whose checks are named by a prefix ('word_of*', 'puzzle 1,*', 'transpose*') no longer "
     "fails them with its declaration message: a file that declares word_of wrongly gets 'word_of(0) = -1, "
     "expected 0' (the fallback's values) instead of what is wrong with the declaration",
     f"{SRC}/rubric.cpp",
     'check.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0',
     'check.rfind(pattern, 0) == 0'),
    ("--visibility PART=WHEN no longer applies to a part's checks (only to a check's name or a name prefix): "
     "'--visibility correctness=hidden' leaves the correctness checks visible on Gradescope",
     f"{SRC}/main.cpp",
     'if (c.part == pattern || c.name == pattern || prefix) rubric.visibility[c.name] = when;',
     'if (c.name == pattern || prefix) rubric.visibility[c.name] = when;'),
    # ---- output formats ----
    ("--format gradescope: a failed check's test has status \"passed\" and a passed check's \"failed\" (the "
     "scores stay right)",
     f"{SRC}/output.cpp",
     'test["status"] = c.outcome.status == Status::kFail ? "failed" : "passed";',
     'test["status"] = c.outcome.status == Status::kPass ? "failed" : "passed";'),
    ("--format junit: a failed or skipped check's message=\"...\" attribute holds only the first word of its "
     "output ('yours:', 'not') instead of its first line",
     f"{SRC}/output.cpp",
     'const std::string first_line = c.outcome.reason.substr(0, c.outcome.reason.find(\'\\n\'));',
     'const std::string first_line = c.outcome.reason.substr(0, c.outcome.reason.find(\' \'));'),
    ("the score line on the CPU backend (text report, Gradescope and PrairieLearn summaries) calls the skipped "
     "GPU checks 'N points of checks that do not apply to this file' instead of 'N points of GPU checks'",
     f"{SRC}/output.cpp",
     'if (c.outcome.status == Status::kSkip && c.check->gpu_only) gpu += c.check->points;',
     'if (c.outcome.status == Status::kSkip && !c.check->gpu_only) gpu += c.check->points;'),
    ("--format json with --variant-from: the report has no \"variant\" object (the student's parameters are "
     "missing), and a report without a variant gets \"variant\": null",
     f"{SRC}/output.cpp",
     'if (!r.rubric->variant.is_null()) report["variant"] = r.rubric->variant;',
     'if (r.rubric->variant.is_null()) report["variant"] = r.rubric->variant;'),
    # ---- batch and gradebook ----
    ("gradebook CSV with --variant-from-name: the variant column holds the student's name too "
     "('block_rows=4 from=\"ann\" p1_row=48 ...')",
     f"{SRC}/batch.cpp",
     'if (axis == "from") continue;',
     'if (axis == "seed") continue;'),
    ("--submissions: a student's report files write '_' as %5F: 'ann_lee' gets reports/ann%5Flee.txt and .json "
     "instead of ann_lee.txt",
     f"{SRC}/batch.cpp",
     "c == '_' || (c == '.' && i > 0);",
     "(c == '.' && i > 0);"),
    # ---- class report ----
    ("--report: '<' is not escaped in the HTML page: a student named '<b>x' or a failure message with "
     "'<' is written as markup (a <script> in a name runs in the instructor's browser)",
     f"{SRC}/class_report.cpp",
     "case '<': out += \"&lt;\"; break;",
     "case '<': out += \"<\"; break;"),
    ("--report: identifiers are no longer normalised: a copy with its variables renamed is no longer flagged "
     "as similar (its similarity drops below the threshold)",
     f"{SRC}/similarity.cpp",
     'tokens.push_back({member || kept_names().count(word) ? word : "$", line});',
     'tokens.push_back({word, line});'),
    # ---- the quiz ----
    ("quiz (instructor's tree): a wrong answer to Q10 (column of a 32x33 tile) is told 'the right one: 32' "
     "instead of 1",
     "grader/quiz/key.cpp",
     '{10, {"1", "Row t starts at word 33 t',
     '{10, {"32", "Row t starts at word 33 t'),
    ("quiz: the maximum is the points scored: 5 right answers of 24 read 'Score: 5/5', full marks, exit "
     "status 0",
     "grader/quiz/quiz.cpp",
     'result.max_score += r.check->points;',
     'result.max_score += r.score;'),
    # ---- hints ----
    ("--hint N past the last step (--hint 9 on a 3-step ladder) shows 'Hint 1 of 3' instead of the last one, "
     "'Hint 3 of 3'",
     f"{SRC}/hints.cpp",
     'const int k = level < 1 ? 1 : (level > count ? count : level);',
     'const int k = level < 1 ? 1 : (level > count ? 1 : level);'),
    # ---- sandbox ----
    ("sandbox: the seccomp filter no longer refuses perf_event_open: a runner or compiler may open performance "
     "counters (where the kernel's perf_event_paranoid allows it) instead of getting EPERM",
     f"{SRC}/sandbox.cpp",
     '"bpf", "perf_event_open", "keyctl",',
     '"bpf", "keyctl",'),
    # ---- source check ----
    ("source check: __attribute__((ifunc(\"...\"))) is no longer refused: a lab file whose resolver runs when "
     "the runner is loaded passes the check ('the attribute `ifunc` is not allowed' gone)",
     f"{SRC}/ast_check.cpp",
     '"ifunc", "alias", "weak",',
     '"alias", "weak",'),
]
