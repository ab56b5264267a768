#!/usr/bin/env python3
"""Eighth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners and headers, the quiz, README), common/bank_model/ (the
bank model the grader prices with), and, for the format and to avoid
duplicates, tests/mutation/grader_mutations.py and grader_mutants_blind2.py
... grader_mutants_blind7.py; nothing else under tests/, no git history.
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: the bytes and halves puzzles pass with lanes sharing bytes (lane l at byte l / 2: 16 different "
     "bytes for 32 lanes), the '32 different bytes' constraint loosened to 16",
     f"{LABS}/lab01/rubric.cpp",
     'if ((name == "bytes" || name == "halves") && distinct_offsets.size() != 32)',
     'if ((name == "bytes" || name == "halves") && distinct_offsets.size() < 16)'),
    ("stage 1: word_of and bank_of checked on random offsets up to 2^24 only, though the message says 2^31 - 1 "
     "(a bank_of that keeps 24 bits of the offset passes)",
     f"{LABS}/lab01/puzzles.hpp",
     "std::uniform_int_distribution<int> above(kOffsetsChecked, 0x7fffffff);",
     "std::uniform_int_distribution<int> above(kOffsetsChecked, 0xffffff);"),
    # ---- stage 2 ----
    ("stage 2: 'shared memory no more than ...' scored for a kernel that is not correct (a wrong row_sums keeps "
     "those 2 points instead of 'not checked: needs ... to pass first')",
     f"{LABS}/lab02/rubric.cpp",
     '"shared-memory behaviour", 2, {correct}, false,',
     '"shared-memory behaviour", 2, {}, false,'),
    ("stage 2: prediction P9 priced with the even lanes of lanes 0-15 only (1 wavefront): the right answer, 2, "
     "marked wrong",
     f"{LABS}/lab02/rubric.cpp",
     'strided("P9", "only the even lanes are active; lane l reads word 2 l.", 2, 0, 0x55555555u),',
     'strided("P9", "only the even lanes are active; lane l reads word 2 l.", 2, 0, 0x5555u),'),
    # ---- stage 3 ----
    ("stage 3 on the GPU: a kernel 1.15x faster than the conflicted tile passes 'at least 1.2x faster' (the "
     "limit is 1.1)",
     f"{LABS}/lab03/rubric.cpp",
     "constexpr double kMinSpeedup = 1.2;",
     "constexpr double kMinSpeedup = 1.1;"),
    ("stage 3 with --variant-from: prediction P1's check named after BANKLAB_P2_ROW and P2's after "
     "BANKLAB_P1_ROW (the gradebook's two prediction columns name the other tile)",
     f"{LABS}/lab03/rubric.cpp",
     '(i == 0 ? "BANKLAB_P1_ROW" : "BANKLAB_P2_ROW")',
     '(i == 0 ? "BANKLAB_P2_ROW" : "BANKLAB_P1_ROW")'),
    # ---- stage 4 ----
    ("stage 4: 'swizzle is one-to-one within each row' compares columns in halves of 16 only (a swizzle sending "
     "columns c and c + 16 of a row to one place passes)",
     f"{LABS}/lab04/rubric.cpp",
     'check_one_to_one(c, "swizzle", "swizzle", kTile, kTile, true, kTile); });',
     'check_one_to_one(c, "swizzle", "swizzle", kTile, kTile, true, kTile / 2); });'),
    ("stage 4: a wrong chunk_transpose_swizzled output is located with row and chunk swapped ('chunk 5 of row "
     "2' for chunk 2 of row 5, chunks up to 31)",
     f"{LABS}/lab04/task_data.hpp",
     "return {t, (within / 4) % kTile, (within / 4) / kTile, within % 4};",
     "return {t, (within / 4) / kTile, (within / 4) % kTile, within % 4};"),
    # ---- stage 5 ----
    ("stage 5: a transpose_half whose threads read back only what they stored themselves (a global-to-global "
     "copy beside a token tile) passes the cost and memory checks",
     f"{LABS}/lab05/rubric.cpp",
     "return TrafficNeed{label, {}, outputs, 2 * outputs, 2 * outputs, 1, true};",
     "return TrafficNeed{label, {}, outputs, 2 * outputs, 2 * outputs, 1, false};"),
    ("stage 5 on the GPU: a store pattern whose cycles differ from its passes (16-byte stores take 1.5-9% more "
     "on the H200) fails the cycle-probe check, though its line says 'reported, not graded'",
     f"{LABS}/lab05/rubric.cpp",
     "if (!ok && !store) loads_agree = false;",
     "if (!ok) loads_agree = false;"),
    # ---- output formats, batch, merge, class report ----
    ("JSON: a part's max_score counts its skipped GPU checks (on the CPU backend the 'on the GPU' part reads 0 "
     "of 10, not 0 of 0; the parts no longer add up to max_score)",
     f"{SRC}/output.cpp",
     "if (c.check->part == part && c.outcome.status != Status::kSkip) {",
     "if (c.check->part == part) {"),
    ("PrairieLearn: the bank map drawn for a partial warp's banksim command (--lanes 0-7) leaves out its last "
     "lane (stage 2's P8 drawn as '7 wavefronts', not 8)",
     f"{SRC}/output.cpp",
     "const LaneMask lanes = last >= kWarpSize - 1 ? 0xffffffffu : ((LaneMask{1} << (last + 1)) - 1);",
     "const LaneMask lanes = last >= kWarpSize - 1 ? 0xffffffffu : ((LaneMask{1} << last) - 1);"),
    ("batch rerun with a new --seed keeps the unchanged files' rows graded with the old seed (students graded "
     "on different inputs, the gradebook claiming the new seed)",
     f"{SRC}/batch.cpp",
     ' row->contains("seed") && (*row)["seed"] == seed &&',
     ""),
    ("--merge: a student in two gradebooks with the same file but different scores merged silently (the first "
     "row kept) instead of 'with different grades' and exit 2",
     f"{SRC}/shard.cpp",
     'found->second.first["score"] == row["score"] && row.contains("sha"))',
     'row.contains("sha"))'),
    ("class report: a full-marks submission counted in the histogram's 90-99 bar, not the 'full marks' bar",
     f"{SRC}/class_report.cpp",
     "const int b = f >= 1.0 ? 10 : std::clamp(static_cast<int>(std::floor(f * 10)), 0, 9);",
     "const int b = f > 1.0 ? 10 : std::clamp(static_cast<int>(std::floor(f * 10)), 0, 9);"),
    # ---- the quiz ----
    ("quiz: a number answer with words after it ('8 wavefronts', '13x') read as the number instead of 'not a "
     "whole number'",
     "grader/quiz/quiz.cpp",
     'return used == given.size() ? std::to_string(value) : "";',
     'return used > 0 ? std::to_string(value) : "";'),
    ("quiz: a letter written twice ('c c', 'a c a') not counted once (a one-answer question says 'give one "
     "letter', a several-answer one is marked wrong)",
     "grader/quiz/quiz.cpp",
     "if (found.find(c) == std::string::npos) found += c;",
     "found += c;"),
    ("quiz: letters separated by commas ('a, c') refused as 'answer with letters a to d'",
     "grader/quiz/quiz.cpp",
     "if (c == ',' || c == ' ' || c == '\\t') continue;",
     "if (c == ' ' || c == '\\t') continue;"),
    # ---- integrity: link check, sandbox, source check ----
    ("link check: a lab object defining its own operator delete (_ZdlPv) accepted (it takes the C++ runtime's "
     "place)",
     f"{SRC}/link_check.cpp",
     'for (const char* prefix : {"_Znw", "_Zna", "_Zdl", "_Zda", "_ZSt"}) {',
     'for (const char* prefix : {"_Znw", "_Zna", "_Zda", "_ZSt"}) {'),
    ("seccomp: clone(CLONE_NEWUSER) allowed (a runner can make a user namespace, root inside it, with clone "
     "where unshare is refused)",
     f"{SRC}/sandbox.cpp",
     "{CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,",
     "{CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWPID,"),
    ("source check: a refusal with two findings says '(and 2 more below)', not 1 (the first counted again)",
     f"{SRC}/source_check.cpp",
     '" (and " + std::to_string(findings.size() - 1) + " more below)"',
     '" (and " + std::to_string(findings.size()) + " more below)"'),
    # ---- hints, the nvcc check, the bank model ----
    ("--hint at the last step of a ladder (--hint 3, or more) says '--hint 4 for the next one' instead of "
     "'that is the last hint for this check'",
     f"{SRC}/hints.cpp",
     'out += k < count ? "  (--hint "',
     'out += k <= count ? "  (--hint "'),
    ("nvcc check: the refusal's first line names nvcc's last error, not its first (a file with two errors "
     "points at the later line)",
     f"{SRC}/nvcc_check.cpp",
     "        first = line;\n        break;\n",
     "        first = line;\n"),
    ("bank model: an empty lane group takes no pipeline pass (stage 5's GPU cycle check expects 1 pass for P9, "
     "8-byte loads on lanes 0-7, which the H200 takes in 2; the explanation's 'pipeline passes' line is gone)",
     "common/bank_model/src/bank_model.cpp",
     "cost.pipeline_passes = std::max(cost.wavefronts, static_cast<int>(cost.groups.size()));",
     "cost.pipeline_passes = cost.wavefronts;"),
]

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind8.py --list
