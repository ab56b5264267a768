#!/usr/bin/env python3
"""Eleventh blind set of mutants for BankLab's grader mutation check, written
without reading the tests: what was read is grader/ (sources, the stages'
rubrics, runners, contracts, task data and headers, stage 6's capstone rubric,
the quiz, the hints, README), common/bank_model/ (the bank model the grader
prices with), and, for the format and to avoid duplicates,
tests/mutation/grader_mutations.py and grader_mutants_blind2.py ...
grader_mutants_blind10.py; nothing else under tests/, no git history.
Each is a small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind11.py --list
MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: prediction P3 (float tile[32][33], lane l reads tile[l][0]) priced as tile[32][34] (2 wavefronts): "
     "the right answer, 1, marked wrong",
     f"{LABS}/lab01/rubric.cpp",
     "[](int l) { return 4 * 33 * l; }),",
     "[](int l) { return 4 * 34 * l; }),"),
    ("stage 1: the five 1-wavefront puzzle checks are named '...: 1 wavefronts' (every report and the gradebook's "
     "column names change)",
     f"{LABS}/lab01/rubric.cpp",
     '(spec.target == 1 ? "" : "s"),',
     '(spec.target == 0 ? "" : "s"),'),
    # ---- stage 2 ----
    ("stage 2: prediction P10 ('only lanes 0-15 are active; lane l reads word 16 l') priced with lanes 0-7 only "
     "(4 wavefronts): the right answer, 8, marked wrong",
     f"{LABS}/lab02/rubric.cpp",
     'strided("P10", "only lanes 0-15 are active; lane l reads word " + p10 + " l.", p.p10, 0, 0xffffu),',
     'strided("P10", "only lanes 0-15 are active; lane l reads word " + p10 + " l.", p.p10, 0, 0xffu),'),
    ("stage 2 runner: a row_sums run of 1 row refused as 'bad count' (a right row_sums fails its correctness "
     "check, and its cost and memory checks are not checked)",
     f"{LABS}/lab02/cpu_runner.cpp",
     "const int count = parse_count(shape, rows_task ? 1 : 2);",
     "const int count = parse_count(shape, 2);"),
    # ---- stage 3 ----
    ("stage 3: 'transpose of 1024x2048 and 2048x1024' worth 5 points instead of 10 (the stage's maximum drops by "
     "5, every percentage shifts)",
     f"{LABS}/lab03/rubric.cpp",
     'add("transpose of 1024x2048 and 2048x1024", "correctness", 10, {}, false,',
     'add("transpose of 1024x2048 and 2048x1024", "correctness", 5, {}, false,'),
    ("stage 3: a kernel with no shared memory fails 'tile write costs 1 wavefront' with 'no shared-memory load "
     "found' and the read check with 'no shared-memory store found' (the words swapped)",
     f"{LABS}/lab03/rubric.cpp",
     'std::string("no shared-memory ") + (stores ? "store" : "load") +',
     'std::string("no shared-memory ") + (stores ? "load" : "store") +'),
    # ---- stage 4 ----
    ("stage 4 runner: '--passes 1' refused as 'bad count' (a right chunk_transpose_swizzled fails 'correct, 1 "
     "and 3 read passes', and its findings, cost and memory checks are not answered)",
     f"{LABS}/lab04/cpu_runner.cpp",
     'parse_count(args.other.at("--passes"), 1, 64)',
     'parse_count(args.other.at("--passes"), 2, 64)'),
    ("stage 4 on the GPU: chunk_transpose_swizzled only 1.6x faster than the unswizzled chunks passes 'at least "
     "2x faster' (its message says 'expected at least 1.500')",
     f"{LABS}/lab04/rubric.cpp",
     '"speed-up over the unswizzled chunks", conflicted / student, 2.0, true);',
     '"speed-up over the unswizzled chunks", conflicted / student, 1.5, true);'),
    # ---- stage 5 ----
    ("stage 5: poly_eval's 'shared memory no more than one copy of the 8 coefficients' worth 3 points instead of "
     "5 (the broadcast part and the stage's maximum drop by 2)",
     f"{LABS}/lab05/rubric.cpp",
     '{"broadcast", 5, 3, 7, 5}',
     '{"broadcast", 5, 3, 7, 3}'),
    ("stage 5 runner: sum_quads' fixed runs labelled '1:2', '127:2', ... (a right sum_quads fails its correctness "
     "check with 'the runner's answer does not match the request')",
     f"{LABS}/lab05/cpu_runner.cpp",
     'run["shape"] = poly || passes == lab05::kQuadPasses ? std::to_string(n)',
     'run["shape"] = poly ? std::to_string(n)'),
    # ---- stage 6 (the capstone) ----
    ("stage 6 diagnosis key: histogram32's counting line (hist[data[i] % HIST_BINS][warp]) explained by COLUMN "
     "only: a row giving it the cause DATA is told 'the cause DATA does not explain its worst warp instruction'",
     f"{LABS}/lab06/rubric.cpp",
     '{"hist[data[i] % HIST_BINS][warp]", {kColumn, kData}},',
     '{"hist[data[i] % HIST_BINS][warp]", {kColumn}},'),
    ("stage 6: a histogram of 32768 values is past the largest size (2^15 - 1): the runner refuses the fixed run "
     "'32768' and a right histogram32 fails its correctness check (its cost and memory checks not checked)",
     f"{LABS}/lab06/task_data.hpp",
     "case Task::kHistogram: return 1 << 15;",
     "case Task::kHistogram: return (1 << 15) - 1;"),
    # ---- shared: checks, pricing, the GPU backend's pure parts ----
    ("cycle probe on the GPU: a load whose cycles are 8% off its pipeline passes agrees (stage 1 puzzles, stage 2 "
     "conflict_degree, stage 5 patterns pass where they should read DIFFERS)",
     f"{SRC}/checks.cpp",
     "std::abs(cycles - expected) <= 0.05 * expected + 0.05;",
     "std::abs(cycles - expected) <= 0.10 * expected + 0.05;"),
    ("Nsight Compute check, source view (nvcc's code not priced): shared atomics left out of the store count, so "
     "stage 6's histogram32 (shared atomicAdd) fails 'Nsight Compute shared wavefronts match the emulator'",
     f"{SRC}/ncu_wavefronts.cpp",
     "same = same && measured[1] + measured[2] == predicted.stores;",
     "same = same && measured[1] == predicted.stores;"),
    ("int outputs (stage 6): a wrong value with any 0xff byte (a small negative sum such as -2) shown as 'never "
     "written' instead of the number the kernel wrote",
     f"{SRC}/raw_answers.cpp",
     "const bool poison = std::all_of(&got[i], &got[i] + 4,",
     "const bool poison = std::any_of(&got[i], &got[i] + 4,"),
    # ---- output formats ----
    ("JUnit: a '<' in a message (stage 3's hint 'x < width, y + j < height') written unescaped: the XML is "
     "malformed and a CI job cannot read the results",
     f"{SRC}/output.cpp",
     'out += "&lt;";',
     'out += "<";'),
    ("Gradescope results.json: a file that does not build gets the test 'lab N: the file builds' with status "
     "'passed' (0 points, but shown green)",
     f"{SRC}/output.cpp",
     '{"status", "failed"},',
     '{"status", "passed"},'),
    # ---- batch / gradebook ----
    ("batch rerun: a submission that no longer builds is listed as 'total: 80 -> 0', not '80 -> does not build' "
     "(and a change from 'does not build' to 'no submission' is not listed)",
     f"{SRC}/batch.cpp",
     'if (check == nullptr) return row.value("status", "") == "graded" ? row["score"] : nlohmann::json(row.value("status", ""));',
     'if (check == nullptr) return row["score"];'),
    ("gradebook: failed checks lose their message (the JSON rows keep the skipped checks' messages instead, and "
     "the CSV message column reads 'NAME: ' with nothing after it)",
     f"{SRC}/batch.cpp",
     'if (status == "fail") check["message"] = c.value("output", "");',
     'if (status == "skip") check["message"] = c.value("output", "");'),
    # ---- the quiz ----
    ("quiz: a student who answered only labs/quiz/answers.zh.txt is graded on the empty English sheet ('not "
     "answered' everywhere), and one with both sheets answered on the Chinese one",
     "grader/quiz/quiz.cpp",
     "return !answered(english) && std::ifstream(chinese) && answered(chinese) ? chinese : english;",
     "return answered(english) && std::ifstream(chinese) && answered(chinese) ? chinese : english;"),
    ("quiz: a wrong answer to Q23 (stride 16 of a 512-thread reduction) shows 'see it: banksim ... --lanes 0-7', "
     "which prints 8 wavefronts for warp 0's 16 active lanes",
     "grader/quiz/quiz.cpp",
     "loads(4, 32, 4 * 16, 0x0000ffffu),",
     "loads(4, 32, 4 * 16, 0x000000ffu),"),
    # ---- source check, link check, hints ----
    ("declaration check: a stage 6 diagnosis of the wrong shape (int diagnosis[20][2]) is told '(one number for "
     "each prediction)' instead of '(one row of numbers for each entry)'",
     f"{SRC}/ast_check.cpp",
     'const bool table = item.type.find("][") != std::string::npos;',
     'const bool table = item.type.find("[]") != std::string::npos;'),
    ("link check: a lab object defining a global variable with a reserved name (_IO_stdin_used, __libc_x, "
     "_dl_argv) is accepted instead of refused",
     f"{SRC}/link_check.cpp",
     "return name[0] == '_' || libc_data.count(name) > 0;",
     "return libc_data.count(name) > 0;"),
    ("--hint on a failing stage 6 'diagnosis of reduce_sum: ...' check gives the generic ladder ('Read the "
     "failing check's output ...') instead of the diagnosis steps",
     f"{SRC}/hints.cpp",
     '{6, "diagnosis",',
     '{6, "diagnosis:",'),
]
