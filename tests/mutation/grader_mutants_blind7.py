#!/usr/bin/env python3
"""Seventh blind set of mutants for BankLab's grader mutation check, written
without reading the tests (only tests/mutation/grader_mutations.py,
grader_mutants_blind2.py, grader_mutants_blind3.py, grader_mutants_blind4.py,
grader_mutants_blind5.py and grader_mutants_blind6.py, for the format and to
avoid duplicates). Each is a small change a student or instructor would see.
Same format as tests/mutation/grader_mutations.py: (name, file, text,
replacement), `text` occurring exactly once in `file` (relative to the
repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: the broadcast puzzle passes with a conflict-free answer (lane l at word l: 32 banks, 1 wavefront), "
     "the 'one bank' constraint no longer applied to it",
     f"{LABS}/lab01/rubric.cpp",
     'if ((name == "broadcast" || name == "one bank four words" || name == "partial warp") && banks.size() != 1)',
     'if ((name == "one bank four words" || name == "partial warp") && banks.size() != 1)'),
    ("stage 1 runner: the tenth prediction (P10) not sent (a right answer to P10 fails as unanswered)",
     f"{LABS}/lab01/cpu_runner.cpp",
     "for (int i = 0; i < lab01::kPredictions; ++i)",
     "for (int i = 0; i + 1 < lab01::kPredictions; ++i)"),
    # ---- stage 2 ----
    ("stage 2: conflict_degree's expected values worked out for one lane fewer than asked (a right "
     "conflict_degree fails; one off by a lane passes)",
     f"{LABS}/lab02/rubric.cpp",
     "const LaneMask lanes = n == kWarpSize ? 0xffffffffu : (LaneMask{1} << n) - 1;",
     "const LaneMask lanes = n == kWarpSize ? 0xffffffffu : (LaneMask{1} << (n - 1)) - 1;"),
    ("stage 2: neighbour_distances' load need counts the last particle of each block too (a right kernel that "
     "reads that one neighbour from global memory fails its cost check for loading too little)",
     f"{LABS}/lab02/rubric.cpp",
     "std::max(0LL, outputs - blocks) * 16, outputs * 16, 1};",
     "outputs * 16, outputs * 16, 1};"),
    # ---- stage 3 ----
    ("stage 3: a kernel whose runner gives no answer for one shape list (too slow on the large shapes) loses "
     "all four findings checks too, though the runs that answered are clean",
     f"{LABS}/lab03/rubric.cpp",
     "  const EmulatorRuns runs = emulator_runs(ctx, p);\n"
     "  if (runs.reports.empty() && runs.failed != nullptr) return not_answered(*runs.failed);\n"
     "  Outcome outcome = check_findings(",
     "  const EmulatorRuns runs = emulator_runs(ctx, p);\n"
     "  if (runs.failed != nullptr) return not_answered(*runs.failed);\n"
     "  Outcome outcome = check_findings("),
    ("stage 3 with --variant-from: the variant's block rows not passed to the runners (a right kernel for 4 or "
     "16 rows is launched with 8 and fails)",
     f"{LABS}/lab03/rubric.cpp",
     'if (p.variant) args.insert(args.end(), {"--block-rows", std::to_string(p.block_rows)});',
     'if (!p.variant) args.insert(args.end(), {"--block-rows", std::to_string(p.block_rows)});'),
    # ---- stage 4 ----
    ("stage 4: chunk_transpose_swizzled that reads shared memory once and keeps the value for the later "
     "passes passes the load-traffic check (the need no longer grows with the passes)",
     f"{LABS}/lab04/rubric.cpp",
     "needs.push_back({r.label, r.report, tiles * kTile * kTile, bytes, bytes * passes, passes});",
     "needs.push_back({r.label, r.report, tiles * kTile * kTile, bytes, bytes, passes});"),
    ("stage 4 runner: swizzle_chunk's map tabled as swizzle_chunk(chunk, row) (a right swizzle_chunk fails "
     "its range and one-to-one checks)",
     f"{LABS}/lab04/cpu_runner.cpp",
     "c.push_back(swizzle_chunk(row, k));",
     "c.push_back(swizzle_chunk(k, row));"),
    # ---- stage 5 ----
    ("stage 5: the tile-read checks of transpose_double and transpose_half worth 7 points instead of 4 (the "
     "stage's maximum rises by 6, every grade's percentage changes)",
     f"{LABS}/lab05/rubric.cpp",
     "p.part, p.cost - 3, {correct}, false,",
     "p.part, p.cost, {correct}, false,"),
    ("stage 5 runner: poly_eval and sum_quads launched without their partial last block (a right kernel fails "
     "on 1, 127 and 1000 elements)",
     f"{LABS}/lab05/cpu_runner.cpp",
     "const dim3 grid((n + threads - 1) / threads);",
     "const dim3 grid(n / threads);"),
    # ---- shared by the runners ----
    ("stages 3-5 runners: a transpose's grid leaves out the partial last column of tiles (a right kernel fails "
     "on 1x1, 31x33 and the random shapes)",
     f"{LABS}/common/transpose_cpu.hpp",
     "const dim3 grid((s.width + tile - 1) / tile, (s.height + tile - 1) / tile);",
     "const dim3 grid(s.width / tile, (s.height + tile - 1) / tile);"),
    ("runner outputs: base64 of a length one more than a multiple of 3 gets a digit instead of its first '=' "
     "(a 32x32 float output, 4096 bytes, decodes one byte long: a right kernel fails)",
     f"{LABS}/common/raw_data.hpp",
     "    if (i + 1 < bytes) o[2] = kBase64Digits[(v >> 6) & 63];",
     "    o[2] = kBase64Digits[(v >> 6) & 63];"),
    # ---- grader ----
    ("similarity report: the starter code is not discounted (two students who kept the handout's skeleton are "
     "flagged as similar)",
     f"{SRC}/similarity.cpp",
     "if (!base_hashes.count(f.hash)) p.fingerprints.push_back(f);",
     "p.fingerprints.push_back(f);"),
    ("--hint: a failing prediction check (and any check without a ladder of its own) gets 'no check fails, "
     "nothing to hint at' (the any-stage ladders never match)",
     f"{SRC}/hints.cpp",
     "if ((l.lab == 0 || l.lab == lab) && check_name.find(l.match) != std::string::npos) return l.steps;",
     "if (l.lab == lab && check_name.find(l.match) != std::string::npos) return l.steps;"),
    ("--variant-from: a name with a trailing space or newline gets another variant than the same name (a "
     "right file graded against the wrong variant)",
     f"{SRC}/variant.cpp",
     "const std::string name = trimmed(from);",
     "const std::string name = from;"),
    ("--merge: shards graded with different seeds merged into one gradebook (students got different inputs), "
     "no error",
     f"{SRC}/shard.cpp",
     'for (const char* key : {"lab", "seed", "backend"}) {\n        if (book[key] != first[key]) {',
     'for (const char* key : {"lab", "backend"}) {\n        if (book[key] != first[key]) {'),
    ("--shard 5/4 accepted (a share past the last grades no one and writes an empty gradebook instead of a "
     "usage error)",
     f"{SRC}/shard.cpp",
     "if (shard.count < 1 || shard.index < 1 || shard.index > shard.count) {",
     "if (shard.count < 1 || shard.index < 1) {"),
    ("conflict hint: a stride's lanes said to start in gcd(s, 32) banks, not 32 / gcd (stride 4: 'only 4 of "
     "the 32 banks' instead of 8)",
     f"{SRC}/access_cause.cpp",
     '<< g << ", so the lanes start in only " << 32 / g << " of the 32 banks";',
     '<< g << ", so the lanes start in only " << g << " of the 32 banks";'),
    ("CPU build cache: a header the submission includes is not part of the runner's key (after editing it the "
     "old runner is graded)",
     f"{SRC}/builder.cpp",
     "  for (const auto& file : own_includes) hash.add(read_file(file));  // files the submission includes\n",
     ""),
    ("traffic checks: every run treated as sampled, so the need is halved (a transpose that moves half its "
     "elements global-to-global beside the tile passes)",
     f"{SRC}/traffic_checks.cpp",
     "const bool sampled = traced > 0 && traced < run_blocks;",
     "const bool sampled = traced > 0 && traced <= run_blocks;"),
    ("class report: submissions that do not build left out of the score histogram and statistics (the class "
     "looks better than it is)",
     f"{SRC}/class_report.cpp",
     'if ((status == "graded" || status == "does not build") && max > 0 && row.contains("score") &&',
     'if (status == "graded" && max > 0 && row.contains("score") &&'),
    ("runner answers: a runner that crashed, was killed or exited non-zero after writing its answer is believed "
     "(a kernel that corrupts memory at exit keeps its verdict)",
     f"{SRC}/rubric.cpp",
     "if (r.ok() && answer.data.is_object() && mismatch.empty()) {",
     "if (answer.data.is_object() && mismatch.empty()) {"),
    ("sandbox (Landlock fallback): a folder that holds solutions/ or the build folder made readable in full (a "
     "lab file at the kit root can include the solutions)",
     f"{SRC}/sandbox.cpp",
     "if (!holds_hidden) rule(path, kFsRead);",
     "rule(path, kFsRead);"),
    ("quiz: two letters to a one-answer question ('a c') marked a wrong answer with its concept, not told to "
     "give only one letter",
     "grader/quiz/quiz.cpp",
     "(q.kind == Kind::kChoice && picked.size() > 1)) return \"\";",
     "(q.kind == Kind::kChoice && picked.size() > 3)) return \"\";"),
]
