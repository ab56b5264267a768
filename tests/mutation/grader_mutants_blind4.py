#!/usr/bin/env python3
"""Fourth blind set of mutants for BankLab's grader mutation check, written
without reading the tests (only tests/mutation/grader_mutations.py,
grader_mutants_blind2.py and grader_mutants_blind3.py, for the format and to
avoid duplicates). Each is a small change a student or instructor would see.
Same format as tests/mutation/grader_mutations.py: (name, file, text,
replacement), `text` occurring exactly once in `file` (relative to the
repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: prediction P7 (lane l reads s[2 l]) priced as s[l] (the right answer, 2, marked wrong)",
     f"{LABS}/lab01/rubric.cpp",
     "[](int l) { return 8 * l; }),",
     "[](int l) { return 4 * l; }),"),
    # ---- stage 2 ----
    ("stage 2: neighbour_distances may use 129 particles of 6 floats of shared memory (bound says 5)",
     f"{LABS}/lab02/rubric.cpp",
     '"2,129,130,256,300", 129 * 5 * 4,',
     '"2,129,130,256,300", 129 * 6 * 4,'),
    ("stage 2: row_sums staging only half of each row (32 floats) meets the traffic need",
     f"{LABS}/lab02/rubric.cpp",
     "const long long bytes = std::stoll(label) * 64 * 4;",
     "const long long bytes = std::stoll(label) * 32 * 4;"),
    # ---- stage 3 ----
    ("stage 3: a kernel that deadlocks at a barrier passes 'no barrier divergence'",
     f"{LABS}/lab03/rubric.cpp",
     '{"barrier divergence", "deadlock"},',
     '{"barrier divergence"},'),
    ("stage 3 contract: a file whose transpose_padded has the wrong signature still gets the four 'no ...' checks (20 points)",
     f"{LABS}/lab03/contract.cpp",
     '{"transpose*", "no *", "tile *",',
     '{"transpose*", "tile *",'),
    # ---- stage 4 ----
    ("stage 4: a misaligned float4 shared access passes the findings checks",
     f"{LABS}/lab04/rubric.cpp",
     '"misaligned shared access",     "barrier divergence",',
     '"barrier divergence",'),
    # ---- stage 5 ----
    ("stage 5 contract: a file without poly_eval (or with a wrong signature) gets its findings points from the empty fallback",
     f"{LABS}/lab05/contract.cpp",
     '{"poly_eval*", "Nsight*"}',
     '{"poly_eval is*", "Nsight*"}'),
    # ---- checks and pricing ----
    ("a conflicted shared line passes the per-line cost check (its ideal summed from its wavefronts)",
     f"{SRC}/checks.cpp",
     'it->ideal += l["ideal_wavefronts"].get<long long>();',
     'it->ideal += l["wavefronts"].get<long long>();'),
    ("stage 2/5: outputs compared on each element's lowest byte only (0.0 where 1.0 is expected reads as right)",
     f"{SRC}/raw_answers.cpp",
     "if (std::memcmp(&expected[i], &got[i], size) == 0) continue;",
     "if (std::memcmp(&expected[i], &got[i], 1) == 0) continue;"),
    ("stage 2/5: an uninitialised shared read passes the findings check",
     f"{SRC}/task_checks.cpp",
     '"barrier divergence", "deadlock", "shared-memory race", "uninitialised shared read"},',
     '"barrier divergence", "deadlock", "shared-memory race"},'),
    ("stage 2/5: the shared-memory bound reads only the dynamic shared bytes (a too large static tile passes)",
     f"{SRC}/task_checks.cpp",
     'a.data["runs"][0]["report"]["shared_bytes"]',
     'a.data["runs"][0]["report"]["dynamic_shared_bytes"]'),
    # ---- output formats ----
    ("PrairieLearn: the score given in points (87) instead of a fraction of 1 (0.87)",
     f"{SRC}/output.cpp",
     '{"score", max_score > 0 ? score / max_score : 0.0},',
     '{"score", score},'),
    ("JUnit: the <testsuites> element counts only build failures (failures=\"0\" with failed checks)",
     f"{SRC}/output.cpp",
     "    all_failures += failures;\n",
     ""),
    ("Autolab: a part with only skipped checks (on the GPU, CPU backend) listed in the scores with 0 points",
     f"{SRC}/output.cpp",
     "      if (ran) scores[prefix + \" \" + part] = points;",
     "      scores[prefix + \" \" + part] = points;"),
    # ---- batch ----
    ("batch rerun: a new random seed every run (the earlier gradebook's seed not reused; everyone regraded)",
     f"{SRC}/batch.cpp",
     "o.seed ? *o.seed : earlier_seed ? *earlier_seed : std::random_device{}() % 1000000000u;",
     "o.seed ? *o.seed : std::random_device{}() % 1000000000u;"),
    ("batch: gradebook rows in reverse order of student name",
     f"{SRC}/batch.cpp",
     "[](const Submission& a, const Submission& b) { return a.student < b.student; });",
     "[](const Submission& a, const Submission& b) { return a.student > b.student; });"),
    ("batch: a submission path with bytes that are not UTF-8 graded under that path (reports and gradebook with invalid text)",
     f"{SRC}/batch.cpp",
     "  if (clean(text) != text) return false;\n",
     ""),
    # ---- the quiz ----
    ("quiz: a multiple-choice answer written out of order (\"c a\") scores 0",
     "grader/quiz/quiz.cpp",
     "  std::sort(found.begin(), found.end());\n",
     ""),
    ("quiz: a line labelled with a small q (\"q3: 13\") refused as unreadable",
     "grader/quiz/quiz.cpp",
     "(label[0] == 'Q' || label[0] == 'q')",
     "(label[0] == 'Q')"),
    # ---- source check and integrity ----
    ("source check: a lab file with its own main() accepted",
     f"{SRC}/ast_check.cpp",
     "if (is_device(f) || names.count(name)) return;",
     'if (is_device(f) || names.count(name) || name == "main") return;'),
    ("source check: any #pragma GCC / clang (GCC optimize, push_options) accepted, not only diagnostic",
     f"{SRC}/ast_check.cpp",
     '(first == "GCC" || first == "clang") && words.size() > 2 && words[2] == "diagnostic") return;',
     '(first == "GCC" || first == "clang") && words.size() > 2) return;'),
    ("source check: a header next to the lab file edited after a passing check keeps the cached pass (host code in it unseen)",
     f"{SRC}/source_check.cpp",
     "if (fnv(file_text(file)) != hash.get<std::string>()) valid = false;",
     "static_cast<void>(hash);"),
    # ---- sandbox and limits ----
    ("sandbox: a runner may open an AF_INET or netlink socket (seccomp allows every socket family)",
     f"{SRC}/sandbox.cpp",
     "    deny(SCMP_SYS(socket), 1, &not_unix);\n",
     ""),
    ("limits: a sandboxed runner's memory not watched (only bubblewrap's own resident memory counted)",
     f"{SRC}/process.cpp",
     "(launch ? tree_resident_bytes(pid) : resident_bytes(pid)) > options.memory_bytes) {",
     "resident_bytes(pid) > options.memory_bytes) {"),
    # ---- GPU backend (Nsight Compute) parsing ----
    ("ncu: a metric value with thousands separators (\"67,108,864\") refused as 'not a count'",
     f"{SRC}/ncu_check.cpp",
     "if (c != ',') digits += c;",
     "digits += c;"),
    ("ncu: no permission to read the GPU's counters (ERR_NVGPUCTRPERM) fails the Nsight check instead of skipping it",
     f"{SRC}/ncu_check.cpp",
     "result.kind = NcuResult::Kind::kNotPermitted;",
     "result.kind = NcuResult::Kind::kLost;"),
]

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind4.py --list
