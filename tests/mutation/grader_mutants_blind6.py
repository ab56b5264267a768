#!/usr/bin/env python3
"""Sixth blind set of mutants for BankLab's grader mutation check, written
without reading the tests (only tests/mutation/grader_mutations.py,
grader_mutants_blind2.py, grader_mutants_blind3.py, grader_mutants_blind4.py
and grader_mutants_blind5.py, for the format and to avoid duplicates). Each is
a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: the partial-warp puzzle's right answer (lanes 8-31 at -1) fails as 'not done yet: every lane "
     "returns -1' (any inactive lane read as none active)",
     f"{LABS}/lab01/rubric.cpp",
     "if (std::all_of(offsets.begin(), offsets.end(), [](int o) { return o < 0; })) {",
     "if (std::any_of(offsets.begin(), offsets.end(), [](int o) { return o < 0; })) {"),
    ("stage 1 runner: --seed read as hexadecimal (under a seed of two digits or more the answer is 'for another "
     "seed' and rejected: word_of and bank_of lose their 20 points)",
     f"{LABS}/lab01/cpu_runner.cpp",
     'if (std::string(argv[i]) == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);',
     'if (std::string(argv[i]) == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 16);'),
    ("stage 1 runner: bank_of's values taken from word_of (a right bank_of fails from byte 128 on; a bank_of "
     "returning the word passes)",
     f"{LABS}/lab01/cpu_runner.cpp",
     'out["bank_of"] = function_values(true, offsets);',
     'out["bank_of"] = function_values(false, offsets);'),
    # ---- stage 2 ----
    ("stage 2: a transpose16 whose threads read back only what they stored themselves (a global-to-global copy "
     "beside a token tile) passes the cost and memory checks",
     f"{LABS}/lab02/rubric.cpp",
     "    need.exchange = true;",
     "    need.exchange = false;"),
    ("stage 2 runner: row_sums and neighbour_distances launched without their partial last block (a right kernel "
     "fails on 1, 127, 300 rows and 2, 129, 130, 300 particles)",
     f"{LABS}/lab02/cpu_runner.cpp",
     "const dim3 grid((count + per_block - 1) / per_block);",
     "const dim3 grid(count / per_block);"),
    # ---- stage 3 ----
    ("stage 3: the tile cost checks price only the runs that answered (a kernel whose runner dies on the large "
     "or random shapes gets the 20 tile-cost points from the small ones)",
     f"{LABS}/lab03/rubric.cpp",
     "  const EmulatorRuns runs = emulator_runs(ctx, p);\n"
     "  if (runs.failed != nullptr) return not_answered(*runs.failed);\n"
     "  return check_line_costs(",
     "  const EmulatorRuns runs = emulator_runs(ctx, p);\n"
     "  if (runs.reports.empty() && runs.failed != nullptr) return not_answered(*runs.failed);\n"
     "  return check_line_costs("),
    ("stage 3 runner: a variant's block rows ignored (transpose_padded always launched as block (32, 8): a right "
     "kernel for the student's 4 or 16 rows fails its variant)",
     f"{LABS}/lab03/cpu_runner.cpp",
     "dim3(32, static_cast<unsigned>(block_rows))",
     "dim3(32, 8)"),
    ("stage 3 runner: --block-time-limit ignored (an endless loop in transpose_padded runs until the whole run's "
     "limit, not the block's twelfth of it)",
     f"{LABS}/lab03/cpu_runner.cpp",
     '    else if (flag == "--block-time-limit")\n      harness::block_time_limit() = std::atof(argv[i + 1]);',
     '    else if (flag == "--block-time-limit")\n      static_cast<void>(argv[i + 1]);'),
    # ---- stage 4 ----
    ("stage 4: the range rule never looks at row 31 (a swizzle or swizzle_chunk out of range only in the last "
     "row passes 'keeps every element in its row')",
     f"{LABS}/lab04/rubric.cpp",
     "  for (int r = 0; r < rows; ++r) {\n    for (int c = 0; c < cols; ++c) {\n      const int v = map[r][c].get<int>();",
     "  for (int r = 0; r < rows - 1; ++r) {\n    for (int c = 0; c < cols; ++c) {\n      const int v = map[r][c].get<int>();"),
    ("stage 4: a shared-memory race (no barrier between the tile write and the read) passes both findings "
     "checks, though their names say 'racy'",
     f"{LABS}/lab04/rubric.cpp",
     '"deadlock",                     "shared-memory race",',
     '"deadlock",'),
    # ---- stage 5 ----
    ("stage 5: a double tile padded by two (double tile[32][34], the misconception the stage corrects) passes "
     "'shared memory no more than a 32x33 double tile'",
     f"{LABS}/lab05/rubric.cpp",
     '"32x32,1x1,31x33,33x31,96x40", 32 * 33 * 8,',
     '"32x32,1x1,31x33,33x31,96x40", 32 * 34 * 8,'),
    ("stage 5 runner: poly_eval's coefficients never copied to the device (a right poly_eval reads what "
     "device_malloc left there and fails its correctness check)",
     f"{LABS}/lab05/cpu_runner.cpp",
     "  std::memcpy(d_coef, coefficients.data(), coefficients.size() * sizeof(float));\n",
     ""),
    # ---- shared checks and pricing ----
    ("stage 3/4: a transpose run that stopped (a time limit or a crash after every element was written) counts "
     "as correct",
     f"{SRC}/checks.cpp",
     'judged["mismatches"].get<long long>() != 0 || stopped) {',
     'judged["mismatches"].get<long long>() != 0) {'),
    ("pricing: shared stores past the emulator's recorded patterns of a line left out silently (a line of many "
     "different conflicted store patterns passes the store cost check)",
     f"{SRC}/raw_answers.cpp",
     '  out.unpriced_stores = count_field(raw, "unrecorded_stores");\n',
     ""),
    # ---- running the runners ----
    ("limits: --memory-limit not applied to the runners (a lab run allocating tens of GiB is not stopped, and "
     "no 'more than 4.00 GiB of memory' message)",
     f"{SRC}/rubric.cpp",
     "  options.memory_bytes = memory_bytes_;\n",
     ""),
    # ---- batch, shards and the formats ----
    ("batch: a student folder with several .cu files, none named as the lab's file, graded on whichever comes "
     "first instead of 'no submission' with 'several .cu files'",
     f"{SRC}/batch.cpp",
     "      if (cu.size() == 1) {",
     "      if (!cu.empty()) {"),
    ("--shard K/N: shares start one student late (shard K takes students K+1, K+1+N, ...: the first student is "
     "in no shard and missing from the merged gradebook)",
     f"{SRC}/shard.cpp",
     "for (std::size_t i = static_cast<std::size_t>(shard->index - 1); i < all.size();",
     "for (std::size_t i = static_cast<std::size_t>(shard->index); i < all.size();"),
    ("Autolab: a file that does not build gets an empty scores object (its parts not scored 0: Autolab keeps "
     "or blanks them)",
     f"{SRC}/output.cpp",
     "      if (!r.build_error.empty()) {\n"
     "        for (const Check& c : r.rubric->checks) ran = ran || (c.part == part && (!c.gpu_only || r.backend == \"gpu\"));\n"
     "      }\n",
     ""),
    ("exit status 1, not 2, for a lab file that does not build (a batch records it as 'graded' with 0 points "
     "instead of 'does not build' with the compiler's message)",
     f"{SRC}/main.cpp",
     "    if (any_unbuilt) return kUsageError;\n",
     ""),
    # ---- integrity: the source check, the link check, the sandbox ----
    ("source check: a file that GCC builds but clang cannot parse is accepted unchecked (its host code, asm and "
     "attributes never looked at)",
     f"{SRC}/source_check.cpp",
     "      if (!gcc.ok()) return report;",
     "      static_cast<void>(gcc);\n      return report;"),
    ("source check: __attribute__((constructor)) on a __device__ function accepted (a function the emulator "
     "build runs at program start)",
     f"{SRC}/ast_check.cpp",
     '"section", "constructor", "destructor",',
     '"section", "destructor",'),
    ("link check: weak symbols skip the allowlist and the reserved names (a weak reference to system() or a weak "
     "definition of malloc in the lab object accepted)",
     f"{SRC}/link_check.cpp",
     "    if (bind == STB_LOCAL || name.empty()) continue;",
     "    if (bind != STB_GLOBAL || name.empty()) continue;"),
    ("sandbox: io_uring_setup allowed (a runner can submit socket and open calls through an io_uring, which the "
     "seccomp filter never sees)",
     f"{SRC}/sandbox.cpp",
     '"delete_module", "io_uring_setup",',
     '"delete_module",'),
    # ---- the quiz ----
    ("quiz: an answers file saved with a UTF-8 byte order mark (Notepad) keeps a stray byte on its first line "
     "(that line, a comment or an answer, refused as unreadable: exit 2 instead of a grade)",
     "grader/quiz/quiz.cpp",
     "lines[0].erase(0, 3);",
     "lines[0].erase(0, 2);"),
]

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind6.py --list
