#!/usr/bin/env python3
"""Third blind set of mutants for BankLab's grader mutation check, written
without reading the tests (only tests/mutation/grader_mutations.py and
grader_mutants_blind2.py, for the format and to avoid duplicates). Each is a
small change a student or instructor would see. Same format as
tests/mutation/grader_mutations.py: (name, file, text, replacement), `text`
occurring exactly once in `file` (relative to the repository root)."""

SRC = "grader/src"
LABS = "grader/labs"

MUTATIONS = [
    # ---- stage 1 ----
    ("stage 1: the multicast puzzle accepts a broadcast (every lane reading one word)", f"{LABS}/lab01/rubric.cpp",
     "if (words.size() < 2 || words.size() > 16)",
     "if (words.size() < 1 || words.size() > 16)"),
    ("stage 1: the partial-warp puzzle wants lanes 0-15 active (the right answer, lanes 0-7, fails)",
     f"{LABS}/lab01/rubric.cpp",
     '''spec.target == 8 && std::string(spec.name) == "partial warp" ? 0xffu : 0xffffffffu;''',
     '''spec.target == 8 && std::string(spec.name) == "partial warp" ? 0xffffu : 0xffffffffu;'''),
    # ---- stage 2 ----
    ("stage 2: conflict_degree never checked at stride 0 (returning 32 for a broadcast passes)",
     f"{LABS}/lab02/rubric.cpp",
     "for (int stride = 0; stride <= kMaxStride; ++stride) {",
     "for (int stride = 1; stride <= kMaxStride; ++stride) {"),
    ("stage 2: prediction P8 priced with lanes 0-3 active (the right answer, 8, marked wrong)",
     f"{LABS}/lab02/rubric.cpp",
     'strided("P8", "only lanes 0-7 are active; lane l reads word 32 l.", 32, 0, 0xffu),',
     'strided("P8", "only lanes 0-7 are active; lane l reads word 32 l.", 32, 0, 0xfu),'),
    # ---- stage 3 ----
    ("stage 3: 'tile write costs 1 wavefront' prices the tile's loads (a conflicted write passes, a conflicted read fails it)",
     f"{LABS}/lab03/rubric.cpp",
     "[p](GradeContext& c) { return check_tile_cost(c, p, true); });",
     "[p](GradeContext& c) { return check_tile_cost(c, p, false); });"),
    ("stage 3: prediction P2 priced as tile[32][32] (expects 32 wavefronts; the right answer, 1, marked wrong)",
     f"{LABS}/lab03/rubric.cpp",
     "strided_access(4, MemOp::kLoad, p.p2_row)}};",
     "strided_access(4, MemOp::kLoad, p.p1_row)}};"),
    # ---- stage 4 ----
    ("stage 4: swizzle_chunk spread checked in groups of 4 rows (chunk ^ (row % 4) passes, a 2-way conflict)",
     f"{LABS}/lab04/rubric.cpp",
     'check_one_to_one(c, "swizzle_chunk", "swizzle_chunk", kTile, kChunks, false, kChunks); });',
     'check_one_to_one(c, "swizzle_chunk", "swizzle_chunk", kTile, kChunks, false, kChunks / 2); });'),
    ("stage 4: a transpose_swizzled that reads back only its own stores (a global copy beside a token tile) "
     "passes the cost and memory checks",
     f"{LABS}/lab04/rubric.cpp",
     "needs.push_back({r.label, r.report, elements, 4 * elements, 4 * elements, 1, true});",
     "needs.push_back({r.label, r.report, elements, 4 * elements, 4 * elements, 1, false});"),
    # ---- stage 5 ----
    ("stage 5: transpose_half has one 'every shared access' cost check (7 points) instead of tile write 3 + tile read 4",
     f"{LABS}/lab05/rubric.cpp",
     "if (t == kDouble || t == kHalf) {",
     "if (t == kDouble) {"),
    ("stage 5: poly_eval reading one coefficient per output from shared memory meets the traffic need (8 needed)",
     f"{LABS}/lab05/rubric.cpp",
     "return TrafficNeed{label, {}, outputs, blocks * kTerms * 4, outputs * kTerms * 4, 1};",
     "return TrafficNeed{label, {}, outputs, blocks * kTerms * 4, outputs * 4, 1};"),
    # ---- grader/src/checks.cpp ----
    ("a prediction left at 0 gets the full explanation (the answer given away) instead of 'not answered yet'",
     f"{SRC}/checks.cpp",
     "if (yours <= 0) {",
     "if (yours < 0) {"),
    # ---- task_checks.cpp ----
    ("stage 2/5: 'shared memory no more than ...' passes a kernel that does not use shared memory at all",
     f"{SRC}/task_checks.cpp",
     "shortfall(task, a, ctx.seed(), TrafficKind::kThrough));",
     '"");'),
    ("stage 2/5: the tasks are graded on the fixed sizes only (no random sizes, though the check's name says so)",
     f"{SRC}/task_checks.cpp",
     'return task.shapes + "," + task.random_shapes(ctx.seed());',
     "return task.shapes;"),
    # ---- traffic_checks.cpp ----
    ("traffic shortfall message counts bytes as elements ('stored 4096 floats' for 1024)",
     f"{SRC}/traffic_checks.cpp",
     "<< count(have / element_bytes)",
     "<< count(have)"),
    # ---- raw_answers.cpp ----
    ("a float atomicAdd on shared memory (a compare-and-swap loop) priced as a plain access, not 2 wavefronts per pass per lane on a bank",
     f"{SRC}/raw_answers.cpp",
     'if (atomic == "cas" || atomic == "cas-loop") {',
     'if (atomic == "cas") {'),
    ("transpose of 1024x2048 refused as 'an impossible shape' (limit 2^20 elements instead of 2^26)",
     f"{SRC}/raw_answers.cpp",
     "static_cast<long long>(s.width) * s.height > (1ll << 26)) {",
     "static_cast<long long>(s.width) * s.height > (1ll << 20)) {"),
    # ---- output.cpp ----
    ("JUnit: a double quote in a check name or message left unescaped in an attribute (malformed XML)",
     f"{SRC}/output.cpp",
     "      case '\"':\n        out += \"&quot;\";\n        break;\n",
     ""),
    ("a file that does not build counts its GPU checks in max_score on the CPU backend (0/100, not 0/N and skipped)",
     f"{SRC}/output.cpp",
     '(c.gpu_only && backend != "gpu" ? r.skipped_points : r.max_score) += c.points;',
     "r.max_score += c.points;"),
    # ---- batch.cpp ----
    ("batch: a hidden entry of the submissions folder (a .git folder, a .old.cu file) graded as a student",
     f"{SRC}/batch.cpp",
     "if (name.empty() || name[0] == '.') continue;",
     "if (name.empty()) continue;"),
    ("batch rerun on another backend keeps the old backend's grades", f"{SRC}/batch.cpp",
     'row->value("backend", "") == o.backend &&',
     ""),
    # ---- the quiz ----
    ("quiz: the choice d refused as not a letter (an answer d never scores)", "grader/quiz/quiz.cpp",
     "if (c >= 'a' && c <= 'd') {",
     "if (c >= 'a' && c <= 'c') {"),
    # ---- integrity checks ----
    ("source check: a union with a pointer member (integer to pointer unseen) accepted", f"{SRC}/ast_check.cpp",
     "if (t.kind == CXType_Pointer || t.kind == CXType_MemberPointer) {",
     "if (t.kind == CXType_MemberPointer) {"),
    ("source check: different code for the CPU emulator and the GPU on the same lines (#ifdef __CUDA_ARCH__) accepted",
     f"{SRC}/source_check.cpp",
     "if (!end_e && !end_d && emulator.own[i].second == device.own[i].second) continue;",
     "if (!end_e && !end_d) continue;"),
    # ---- sandbox.cpp ----
    ("sandbox: the lab file's own folder hidden from the compile steps (a header next to it cannot be included)",
     f"{SRC}/sandbox.cpp",
     "  view.read_only.push_back(file.parent_path().string());  // the files it may include\n",
     ""),
]

# Each text is in its file exactly once: --list says so (or which is not):
#   python3 tests/mutation/grader_mutations.py build --set extra --extra tests/mutation/grader_mutants_blind3.py --list
