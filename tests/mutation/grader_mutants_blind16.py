#!/usr/bin/env python3
"""Sixteenth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners, contracts, task data and headers, stage 6's capstone rubric,
the quiz and its key, the hints, README), common/bank_model/ (the bank model
the grader prices with), and, for the format and to avoid duplicates,
tests/mutation/grader_mutations.py and grader_mutants_blind2.py ...
grader_mutants_blind15.py; nothing else under tests/ (no test sources, no test
data), no grep outside grader/ and common/bank_model/, no git history. Nothing
was built or run (only this module was imported, to count each text in its
file).
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind16.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: a right bank_of fails 'bank_of on every byte offset': it is compared with word_of's values "
     "('bank_of(128) = 0, expected 32')",
     f"{LABS}/lab01/rubric.cpp",
     'const bool bank = std::string(name) == "bank_of";',
     'const bool bank = std::string(name) == "bank";'),
    ("stage 1: prediction P2 (float tile[32][32], lane l reads tile[l][0]) priced as a 31-float row (1 wavefront): "
     "the right answer, 32, is marked wrong",
     f"{LABS}/lab01/rubric.cpp",
     '[](int l) { return 4 * 32 * l; }),',
     '[](int l) { return 4 * 31 * l; }),'),
    # ---- stage 2 ----
    ("stage 2: prediction P1 ('lane l reads word l (stride 1)') priced at stride 2 (2 wavefronts): the right "
     "answer, 1, is marked wrong",
     f"{LABS}/lab02/rubric.cpp",
     'strided("P1", "lane l reads word l (stride 1).", 1, 0),',
     'strided("P1", "lane l reads word l (stride 1).", 2, 0),'),
    ("stage 2: a right conflict_degree fails 'conflict_degree on every stride 0-1024 ...' with 'could not check: the "
     "runner did not return 32768 values' (the grader expects one stride fewer)",
     f"{LABS}/lab02/rubric.cpp",
     'const std::size_t cases = static_cast<std::size_t>(kMaxStride + 1) * kWarpSize;',
     'const std::size_t cases = static_cast<std::size_t>(kMaxStride) * kWarpSize;'),
    # ---- stage 3 ----
    ("stage 3: prediction P1 (the column read of float tile[32][32]) priced as the column of tile[32][33] (1 "
     "wavefront): the right answer, 32, is marked wrong",
     f"{LABS}/lab03/rubric.cpp",
     'strided_access(4, MemOp::kLoad, p.p1_row)}',
     'strided_access(4, MemOp::kLoad, p.p2_row)}'),
    ("stage 3: 'transpose of a 32x32 matrix' worth 10 points instead of 5 (the correctness part 45, the stage's "
     "maximum up by 5)",
     f"{LABS}/lab03/rubric.cpp",
     'add(square, "correctness", 5, {}, false,',
     'add(square, "correctness", 10, {}, false,'),
    # ---- stage 4 ----
    ("stage 4: the swizzle map's one-to-one checks skip the last row and the last logical column (31; for "
     "swizzle_chunk row 31 and chunk 7): a map that repeats a place only there passes",
     f"{LABS}/lab04/rubric.cpp",
     'for (int fixed = 0; fixed < lines; ++fixed) {',
     'for (int fixed = 0; fixed < lines - 1; ++fixed) {'),
    ("stage 4: a swizzle value out of range is reported as 'swizzle(r, c) = 40: outside 0..32' (one past the last "
     "column; swizzle_chunk: 'outside 0..8')",
     f"{LABS}/lab04/rubric.cpp",
     '": outside 0.." << cols - 1',
     '": outside 0.." << cols'),
    # ---- stage 5 ----
    ("stage 5: transpose_double's shared-traffic need counted at 4 bytes per double: a kernel that stages only half "
     "of each double's bytes through the tile passes its cost and memory checks",
     f"{LABS}/lab05/rubric.cpp",
     'return TrafficNeed{label, {}, outputs, 8 * outputs, 8 * outputs, 1, true};',
     'return TrafficNeed{label, {}, outputs, 4 * outputs, 4 * outputs, 1, true};'),
    ("stage 5: 'transpose_double/transpose_half: tile write at its ideal wavefronts' no longer needs the kernel to "
     "be correct: a wrong kernel with a conflict-free write gets its 3 points (not skipped)",
     f"{LABS}/lab05/rubric.cpp",
     'add(task.kernel + ": tile write at its ideal wavefronts", p.part, 3, {correct}, false,',
     'add(task.kernel + ": tile write at its ideal wavefronts", p.part, 3, {}, false,'),
    # ---- stage 6 (the capstone) ----
    ("stage 6: a diagnosis that leaves out exactly one conflicted line of a kernel (and has no other problem) passes "
     "'diagnosis of KERNEL: every conflicted line ...'",
     f"{LABS}/lab06/rubric.cpp",
     'if (missing > 0) {',
     'if (missing > 1) {'),
    ("stage 6: reduce_sum's shared-memory bound is 272 ints instead of 264 (the message still says '264 ints'): a "
     "tree padded every 16 words passes 'shared memory no more than ...'",
     f"{LABS}/lab06/rubric.cpp",
     '(256 + 8) * 4',
     '(256 + 16) * 4'),
    # ---- checks and pricing ----
    ("a wrong transpose (stages 3 and 4) reports its count out of width + height: '31x33: 12 of 64 elements wrong' "
     "instead of 'of 1023'",
     f"{SRC}/checks.cpp",
     'const long long total = run["width"].get<long long>() * run["height"].get<long long>();',
     'const long long total = run["width"].get<long long>() + run["height"].get<long long>();'),
    ("bank model: an empty lane group (a half-warp of an 8-byte access, a quarter-warp of a 16-byte one, with no "
     "active lane) counts one ideal wavefront: an 8-byte access of lanes 0-15 with a 2-way conflict shows 'ideal 2', "
     "no conflict, and passes the cost checks; banksim's ideal and conflicts wrong",
     "common/bank_model/src/bank_model.cpp",
     'if (group.active != 0) ++cost.ideal_wavefronts;',
     '++cost.ideal_wavefronts;'),
    # ---- output formats ----
    ("--format json: a failed check's status is \"skip\" instead of \"fail\" (its score 0 stays)",
     f"{SRC}/output.cpp",
     ': c.outcome.status == Status::kFail ? "fail"',
     ': c.outcome.status == Status::kFail ? "skip"'),
    ("--format autolab: the scoreboard's columns are swapped: [max_score, score] instead of [score, max_score]",
     f"{SRC}/output.cpp",
     '{"scoreboard", {score, max_score}}',
     '{"scoreboard", {max_score, score}}'),
    # ---- batch and gradebook ----
    ("gradebook (JSON and CSV): a failed check's score is null (blank, as if skipped) and a skipped check's "
     "is 0, instead of the failed check's 0 and the skipped check's null",
     f"{SRC}/batch.cpp",
     'check["score"] = status == "skip" ? nlohmann::json(nullptr) : c.at("score");',
     'check["score"] = status == "fail" ? nlohmann::json(nullptr) : c.at("score");'),
    # ---- class report ----
    ("--report on a CSV gradebook: the seed column is read as a check (a 'seed' row in the pass-rate chart, with the "
     "seeds as its scores)",
     f"{SRC}/class_report.cpp",
     'if (header[i] == "seed") first_check = i + 1;',
     'if (header[i] == "seed") first_check = i;'),
    # ---- the quiz ----
    ("quiz: an unanswered question says 'not answered: write your answer after \"5:\"' for question 4 (the next "
     "question's number; also in the Chinese sheet's message)",
     "grader/quiz/quiz.cpp",
     'const std::string number = std::to_string(q.number);',
     'const std::string number = std::to_string(q.number + 1);'),
    # ---- hints ----
    ("--hint on stage 2: a failing transpose16 check gets the generic ladder ('Read the failing check's output ...') "
     "instead of transpose16's (its ladder is filed under stage 3)",
     f"{SRC}/hints.cpp",
     '{2, "transpose16",',
     '{3, "transpose16",'),
    # ---- integrity checks ----
    ("source check: the GPU view is preprocessed without __CUDA_ARCH__: a file whose `#ifdef __CUDA_ARCH__` chooses "
     "other code for the GPU is no longer refused as 'not the same for the CPU emulator and for a GPU'",
     f"{SRC}/source_check.cpp",
     '"-D__NVCC__=1", "-D__CUDA_ARCH__=900"}',
     '"-D__NVCC__=1"}'),
    # ---- sandbox ----
    ("sandbox: the seccomp filter no longer refuses ioctl(TIOCSTI): a runner or compiler may type into the grader's "
     "terminal (only TIOCLINUX stays refused)",
     f"{SRC}/sandbox.cpp",
     '{static_cast<unsigned long>(TIOCSTI), static_cast<unsigned long>(TIOCLINUX)}',
     '{static_cast<unsigned long>(TIOCLINUX)}'),
    # ---- GPU / Nsight Compute ----
    ("Nsight Compute: a metric value with trailing text ('12.5', '96 (x2)') is read as its leading number instead "
     "of the check failing with '... is not a count'",
     f"{SRC}/ncu_check.cpp",
     'if (digits.empty() || used != digits.size() || value < 0) {',
     'if (digits.empty() || value < 0) {'),
    # ---- main.cpp's command line ----
    ("--lab all: the total line says 'over 7 stages and the quiz' (the quiz counted as a stage too)",
     f"{SRC}/main.cpp",
     'std::to_string(results.size() - 1) +',
     'std::to_string(results.size()) +'),
]
