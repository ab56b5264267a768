#!/usr/bin/env python3
"""Fifth blind set of mutants for BankLab's grader mutation check, written
without reading the tests (only tests/mutation/grader_mutations.py,
grader_mutants_blind2.py, grader_mutants_blind3.py and
grader_mutants_blind4.py, for the format and to avoid duplicates). Each is a
small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: prediction P10 priced with lanes 16-31 at byte 184 (bank 14, not 13): the right answer, 2, marked wrong",
     f"{LABS}/lab01/rubric.cpp",
     "[](int l) { return l < 16 ? 52 : 180; }),",
     "[](int l) { return l < 16 ? 52 : 184; }),"),
    ("stage 1 runner: the halves puzzle launched with 4-byte loads (a right answer on 2-byte offsets fails as misaligned)",
     f"{LABS}/lab01/cpu_runner.cpp",
     ": spec.width_bytes == 2 ? launch<unsigned short>(p, time_limit)",
     ": spec.width_bytes == 2 ? launch<unsigned>(p, time_limit)"),
    # ---- stage 2 ----
    ("stage 2: 'every shared access at its ideal wavefronts' no longer needs correctness "
     "(a wrong but conflict-free kernel earns its 8 points instead of 'not checked')",
     f"{LABS}/lab02/rubric.cpp",
     'add(kernel + ": every shared access at its ideal wavefronts", "shared-memory behaviour", 8, {correct}, false,',
     'add(kernel + ": every shared access at its ideal wavefronts", "shared-memory behaviour", 8, {}, false,'),
    ("stage 2 runner: transpose16 launched without its partial last column of tiles "
     "(a correct kernel fails on 1x1, 15x17, 17x15, 34x18)",
     f"{LABS}/lab02/cpu_runner.cpp",
     "const dim3 grid((s.width + 15) / 16, (s.height + 15) / 16);",
     "const dim3 grid(s.width / 16, (s.height + 15) / 16);"),
    # ---- stage 3 ----
    ("stage 3: the findings, cost and memory checks leave out the 1024x2048 and 2048x1024 runs "
     "(a kernel conflicted or racy only on large matrices passes them)",
     f"{LABS}/lab03/rubric.cpp",
     "return {kSquare, kPartial, kLarge, random_shapes(seed)};",
     "return {kSquare, kPartial, random_shapes(seed)};"),
    ("stage 3 runner: the two predictions read swapped (the right answers, 32 and 1, both marked wrong)",
     f"{LABS}/lab03/cpu_runner.cpp",
     "if (given != nullptr) predictions = {given[0], given[1]};",
     "if (given != nullptr) predictions = {given[1], given[0]};"),
    # ---- stage 4 ----
    ("stage 4: swizzle_chunk values outside 0-7 pass 'keeps chunks in their row' when each row is one-to-one "
     "(the range rule's verdict dropped)",
     f"{LABS}/lab04/rubric.cpp",
     "        if (range.status != Status::kPass) return range;\n",
     "        static_cast<void>(range);\n"),
    ("stage 4 contract: a wrong swizzle declaration also fails the two swizzle_chunk map checks "
     "(10 points lost for a right swizzle_chunk)",
     f"{LABS}/lab04/contract.cpp",
     '{"swizzle *"}',
     '{"swizzle*"}'),
    # ---- stage 5 ----
    ("stage 5: the store predictions P3 and P4 priced as loads (the right answers, 2 and 4, marked wrong)",
     f"{LABS}/lab05/rubric.cpp",
     "WarpAccess::make(pattern.width_bytes, pattern.store ? MemOp::kStore : MemOp::kLoad, offsets)",
     "WarpAccess::make(pattern.width_bytes, MemOp::kLoad, offsets)"),
    ("stage 5 runner: sum_quads always launched with 2 passes (a correct kernel fails the random runs of 3-6 passes)",
     f"{LABS}/lab05/cpu_runner.cpp",
     " n,\n                                  passes);",
     " n,\n                                  lab05::kQuadPasses);"),
    # ---- shared checks and pricing ----
    ("the last output element never compared (stage 2/4/5: a kernel wrong only there passes; "
     "row_sums of 1 row writing nothing passes)",
     f"{SRC}/raw_answers.cpp",
     "for (std::size_t i = 0; i + size <= expected.size(); i += size) {",
     "for (std::size_t i = 0; i + size < expected.size(); i += size) {"),
    ("the per-line cost of the stores also prices load-only lines (a conflicted tile read fails the "
     "'tile write' check too)",
     f"{SRC}/checks.cpp",
     "(kind == LineKind::kStores && !stores)",
     "(kind == LineKind::kStores && !stores && !loads)"),
    ("stage 2/5: a run's outputs counted in bytes (300 outputs read as 1200): the traffic need quadruples and a "
     "right neighbour_distances, poly_eval or sum_quads fails its cost and memory checks",
     f"{SRC}/task_checks.cpp",
     "return static_cast<long long>(task.reference(run, seed, &element_bytes).size()) / element_bytes;",
     "return static_cast<long long>(task.reference(run, seed, &element_bytes).size());"),
    ("Gradescope: the prediction checks visible to students before the due date (their bank map gives the "
     "answer away)",
     f"{SRC}/rubric.cpp",
     'return check.part == "predictions" ? "after_due_date" : "visible";',
     'return check.part == "prediction" ? "after_due_date" : "visible";'),
    # ---- output formats ----
    ("JSON of several labs (--lab all): the total's max_score is the sum of the scores (150/150 for 150 of 500)",
     f"{SRC}/output.cpp",
     "    max_score += r.max_score;\n    skipped += r.skipped_points;",
     "    max_score += r.score;\n    skipped += r.skipped_points;"),
    ("JUnit: every testsuite says skipped=\"0\" (the GPU checks skipped on the CPU backend not counted)",
     f"{SRC}/output.cpp",
     "      skipped += c.outcome.status == Status::kSkip;\n",
     ""),
    ("PrairieLearn: a file that does not build is gradable (the student loses an attempt for a 0 instead of "
     "being told to fix the build)",
     f"{SRC}/output.cpp",
     "      gradable = false;\n",
     ""),
    # ---- batch and the class report ----
    ("batch: students 'ann lee' and 'ann_lee' share one report file (ann_lee.txt and .json: one student's "
     "report overwrites the other's)",
     f"{SRC}/batch.cpp",
     "if (name != student || name.empty() || name[0] == '.') {",
     "if (name.empty() || name[0] == '.') {"),
    ("class report: the median of an even number of scores is the upper middle one (50% and 100% give 100%, "
     "not 75%)",
     f"{SRC}/class_report.cpp",
     ": (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;",
     ": sorted[sorted.size() / 2];"),
    # ---- the quiz ----
    ("quiz: an answers file with Windows line endings (CRLF) read with its '\\r' (\"13\" is not a whole number, "
     "\"c\" not a letter)",
     "grader/quiz/quiz.cpp",
     's.find_last_not_of(" \\t\\r")',
     's.find_last_not_of(" \\t")'),
    # ---- integrity ----
    ("runner answer: an answer line without the run's secret accepted (a lab file that writes its own JSON to "
     "descriptor 3 and exits is believed)",
     f"{SRC}/rubric.cpp",
     "if (r.answer.compare(0, prefix.size(), prefix) != 0 || !one_line) {",
     "if (!one_line) {"),
    ("limits: a runner's files not limited to 64 MiB (RLIMIT_FSIZE never set: a lab run may fill the disk)",
     f"{SRC}/process.cpp",
     "      setrlimit(RLIMIT_FSIZE, &limit);\n",
     "      static_cast<void>(limit);\n"),
    ("link check: a lab object defining a function in namespace banklab (in place of the emulator's own) accepted",
     f"{SRC}/link_check.cpp",
     '"_ZN7banklab", "_ZNK7banklab", ',
     '"_ZNK7banklab", '),
    ("declaration check: a stage 1 word_of declared __device__ only (no __host__) accepted, though the runners "
     "call it on the host too",
     f"{SRC}/ast_check.cpp",
     '(!Checker::has_annotation(c, "banklab:device") || (wants_host && !Checker::has_annotation(c, "banklab:host")))',
     '(!Checker::has_annotation(c, "banklab:device"))'),
]

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind5.py --list
