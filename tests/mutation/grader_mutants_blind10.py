#!/usr/bin/env python3
"""Tenth blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners, contracts and headers, the quiz, README), common/bank_model/
(the bank model the grader prices with), and, for the format and to avoid
duplicates, tests/mutation/grader_mutations.py and grader_mutants_blind2.py
... grader_mutants_blind9.py; nothing else under tests/, no git history.
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind10.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: prediction P8 (lane l reads s[16 l]) priced as s[8 l] (8 wavefronts): the right answer, 16, "
     "marked wrong",
     f"{LABS}/lab01/rubric.cpp",
     "[](int l) { return 64 * l; }),",
     "[](int l) { return 32 * l; }),"),
    ("stage 1 contract: a wrong puzzle_conflict_free declaration also fails puzzle 10 (partial warp) with the "
     "declaration message, though puzzle_partial_warp is right (its 4 points lost)",
     f"{LABS}/lab01/contract.cpp",
     '{"puzzle 1,*", "puzzle loads*"}',
     '{"puzzle 1*", "puzzle loads*"}'),
    # ---- stage 2 ----
    ("stage 2: each kernel's correctness check worth 6 points instead of 8 (the stage's maximum drops by 6, "
     "every grade's percentage shifts)",
     f"{LABS}/lab02/rubric.cpp",
     'add(correct, "correctness", 8, {}, false,',
     'add(correct, "correctness", 6, {}, false,'),
    ("stage 2: prediction P2 ('lane l reads word 2 l (stride 2)') priced as stride 4 (4 wavefronts): the right "
     "answer, 2, marked wrong",
     f"{LABS}/lab02/rubric.cpp",
     'strided("P2", "lane l reads word 2 l (stride 2).", 2, 0),',
     'strided("P2", "lane l reads word 2 l (stride 2).", 4, 0),'),
    # ---- stage 3 ----
    ("stage 3: 'no shared-memory race' passes a kernel with no barrier between the tile write and the read "
     "(the check looks for a finding kind the emulator never reports)",
     f"{LABS}/lab03/rubric.cpp",
     '{"shared-memory race"},',
     '{"shared memory race"},'),
    ("stage 3: 'tile read costs 1 wavefront per warp instruction' scored for a kernel wrong on the 32x32 "
     "matrix (its 10 points kept instead of 'not checked: needs transpose of a 32x32 matrix to pass first')",
     f"{LABS}/lab03/rubric.cpp",
     'add("tile read costs 1 wavefront per warp instruction", "shared-memory behaviour", 10, {square}, false,',
     'add("tile read costs 1 wavefront per warp instruction", "shared-memory behaviour", 10, {}, false,'),
    # ---- stage 4 ----
    ("stage 4: an uninitialised shared read (a tile element read before any thread wrote it) passes both "
     "findings checks, though transpose_swizzled's and chunk_transpose_swizzled's names say 'uninitialised'",
     f"{LABS}/lab04/rubric.cpp",
     '"uninitialised shared read"};',
     '"out-of-bounds global access"};'),
    ("stage 4: chunk_transpose_swizzled may use two float4 tiles (8192 bytes pass 'shared memory no more than "
     "4096 bytes', and its message says 'at most: 8192')",
     f"{LABS}/lab04/rubric.cpp",
     "check_shared_bytes(bytes, kTileBytes, chunks ?",
     "check_shared_bytes(bytes, chunks ? 2 * kTileBytes : kTileBytes, chunks ?"),
    # ---- stage 5 ----
    ("stage 5: prediction P7 ('lane l loads tile[l][0] of double tile[32][16]') priced as double "
     "tile[32][17] (conflict-free): the right answer marked wrong",
     f"{LABS}/lab05/predictions.hpp",
     "case 6: return 8LL * 16 * lane;",
     "case 6: return 8LL * 17 * lane;"),
    ("stage 5: sum_quads may stage 256 float4s (4096 bytes pass 'shared memory no more than 128 float4s', and "
     "its message says 'at most: 4096')",
     f"{LABS}/lab05/rubric.cpp",
     '"1,127,128,1000", 128 * 16, "128 float4s",',
     '"1,127,128,1000", 256 * 16, "128 float4s",'),
    # ---- shared checks ----
    ("stage 5: a wrong answer to a store prediction (P3, P4) shows a banksim command without '--op st', which "
     "prices a load, not the store (and PrairieLearn draws the load's bank map)",
     f"{SRC}/checks.cpp",
     'if (access.op == MemOp::kStore) out << " --op st";',
     'if (access.op == MemOp::kStore) out << "";'),
    ("stage 2/5: a run the emulator stopped (a deadlock, an out-of-bounds access) says 'the kernel did not "
     "finish' in the correctness check without the finding that stopped it",
     f"{SRC}/task_checks.cpp",
     'for (const auto& f : given["report"]["findings"]) out << "\\n" << describe_finding(f);',
     "// the findings that stopped it left out"),
    ("stage 4/5: 'shared memory no more than ...' of chunk_transpose_swizzled and sum_quads wants every pass's "
     "shared loads (a kernel that reads shared memory once and keeps the value loses those points too, 'at "
     "least N expected' counting every pass)",
     f"{SRC}/traffic_checks.cpp",
     "scaled(kind == TrafficKind::kThrough ? run.load_bytes / run.passes : run.load_bytes);",
     "scaled(run.load_bytes);"),
    ("stage 3/4/5: a wrong transpose element named with row and column swapped ('out[5][2]' for out[2][5]; "
     "the comparison itself unchanged)",
     f"{SRC}/raw_answers.cpp",
     '{{"row", m.x}, {"col", m.y},',
     '{{"row", m.y}, {"col", m.x},'),
    # ---- output formats ----
    ("JUnit: a failed check written as <skipped> and a skipped one as <failure> (a CI job reads lost points as "
     "skipped tests; the testcases disagree with the suite's failures and skipped counts)",
     f"{SRC}/output.cpp",
     'const char* tag = c.outcome.status == Status::kFail ? "failure" : "skipped";',
     'const char* tag = c.outcome.status == Status::kSkip ? "failure" : "skipped";'),
    # ---- batch, gradebook, class report ----
    ("batch: a submission given as DIR/NAME.cu graded as student 'NAME.cu' (the gradebook row, the reports "
     "NAME.cu.txt and .json, and its variant all take the extension)",
     f"{SRC}/batch.cpp",
     "found.push_back({entry.path().stem().string(), entry.path().string(), \"\"});",
     "found.push_back({entry.path().filename().string(), entry.path().string(), \"\"});"),
    ("class report: the summary line says '0 at full marks' whatever the class (a full-marks submission not "
     "counted)",
     f"{SRC}/class_report.cpp",
     "[](double f) { return f >= 1.0; });",
     "[](double f) { return f > 1.0; });"),
    # ---- the quiz ----
    ("quiz: a wrong answer to Q3 ('the bank of byte 180') shows 'see it: banksim --width 4 --stride 0 --lanes "
     "0' without '--base 180' (the command prints bank 0, not the float's bank)",
     "grader/quiz/quiz.cpp",
     'if (base != 0) command += " --base " + std::to_string(base);',
     'if (base < 0) command += " --base " + std::to_string(base);'),
    # ---- integrity: source check, link check, nvcc ----
    ("source check: '#pragma unroll' refused ('#pragma unroll is not allowed in a lab file (only #pragma "
     "unroll and #pragma once are)'): a right file with an unrolled loop does not build",
     f"{SRC}/ast_check.cpp",
     '{"unroll", "nounroll", "once", "region", "endregion"}',
     '{"nounroll", "once", "region", "endregion"}'),
    ("link check: a lab object calling malloc, calloc, realloc or aligned_alloc accepted (the allowlist gains "
     "'*alloc')",
     f"{SRC}/lab_object_allowlist.inc",
     "ilogb ilogbf logb logbf nan nanf",
     "ilogb ilogbf logb logbf nan nanf *alloc"),
    ("nvcc check: nvcc's errors name the student's file by its full path ('/home/ann/labs/03-padded-transpose/"
     "transpose.cu:12: error: ...'), not 'transpose.cu:12:' as the other build messages do",
     f"{SRC}/nvcc_check.cpp",
     "if (file.rfind(folder, 0) == 0) file = file.substr(folder.size());",
     "if (file.rfind(folder, 0) == 0) file = file.substr(0);"),
    # ---- sandbox ----
    ("seccomp: personality() allowed with any argument (a runner can turn off address-space randomisation or "
     "set READ_IMPLIES_EXEC), not only the query",
     f"{SRC}/sandbox.cpp",
     "deny(SCMP_SYS(personality), 1, &not_query);",
     "static_cast<void>(not_query);"),
    # ---- hints, variants ----
    ("--hint on a failing swizzle_chunk check gives the 32-column swizzle's ladder ('The map must keep every "
     "element in its row ...'), not the float4 chunk one ('A float4 column read is served a quarter-warp ...')",
     f"{SRC}/hints.cpp",
     '{4, "swizzle_chunk",',
     '{4, "swizzle chunk",'),
    ("variants: the course salt ignored (--variant-salt and BANKLAB_VARIANT_SALT change nothing: a salted "
     "course gets the unsalted variants, and anyone can work out a classmate's)",
     f"{SRC}/variant.cpp",
     'std::to_string(salt.size()) + ":" + salt +',
     'std::to_string(0 * salt.size()) + ":" +'),
]
