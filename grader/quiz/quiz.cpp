#include "quiz.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace banklab::grader::quiz {

namespace {

const char* const kStage1 = "stage 1: bank mapping";
const char* const kStage2 = "stage 2: stride and gcd";
const char* const kStage3 = "stage 3: padded transpose";
const char* const kStage4 = "stage 4: XOR swizzle";
const char* const kStage5 = "stage 5: broadcast and wide types";
const char* const kTools = "measuring and fixing";

Question choice(int n, const char* part, std::string title, std::string text, std::vector<std::string> choices,
                std::string answer, std::string why) {
  Question q;
  q.number = n;
  q.part = part;
  q.title = std::move(title);
  q.text = std::move(text);
  q.kind = answer.size() == 1 ? Kind::kChoice : Kind::kChoices;
  q.choices = std::move(choices);
  q.answer = std::move(answer);
  q.why = std::move(why);
  return q;
}

Question number(int n, const char* part, std::string title, std::string text, int answer, WarpAccess access,
                std::string why, Measure measure = Measure::kWavefronts) {
  Question q;
  q.number = n;
  q.part = part;
  q.title = std::move(title);
  q.text = std::move(text);
  q.kind = Kind::kNumber;
  q.answer = std::to_string(answer);
  q.why = std::move(why);
  q.access = access;
  q.measure = measure;
  return q;
}

WarpAccess loads(int width, std::int64_t stride, std::int64_t base = 0, LaneMask lanes = 0xffffffffu) {
  return strided_access(width, MemOp::kLoad, stride, base, lanes);
}

// Lane l reads logical (l, col) of a 32x32 float tile stored XOR-swizzled:
// physical column col ^ l.
WarpAccess swizzled_column(int col) {
  std::vector<std::int64_t> offsets;
  for (int l = 0; l < kWarpSize; ++l) offsets.push_back(4 * (32 * l + (col ^ l)));
  return WarpAccess::make(4, MemOp::kLoad, offsets);
}

std::vector<Question> make_questions() {
  std::vector<Question> q;
  // ---- stage 1 ----
  q.push_back(choice(1, kStage1, "banks of shared memory",
                     "How many banks does shared memory have on current NVIDIA GPUs (an H200, say)?",
                     {"a) 8", "b) 16", "c) 32", "d) 64"}, "c",
                     "32 banks, one per lane of a warp: consecutive 4-byte words go to consecutive banks, and "
                     "word w is in bank w mod 32."));
  q.push_back(choice(2, kStage1, "width of a bank",
                     "How many bytes does one bank deliver per wavefront?", {"a) 4", "b) 8", "c) 16", "d) 32"}, "a",
                     "4 bytes, one 32-bit word. 8 is the size of a double, not of a bank: a warp of 8-byte accesses "
                     "is served half a warp at a time, 16-byte accesses a quarter at a time."));
  q.push_back(number(3, kStage1, "the bank of byte 180",
                     "A float sits at byte offset 180 of shared memory. Which bank holds it?", 13,
                     loads(4, 0, 180, 1u),
                     "word = 180 / 4 = 45, bank = 45 mod 32 = 13. The bank mapping repeats every 128 bytes: byte 52 "
                     "(word 13) is in bank 13 too.",
                     Measure::kBankOfLane0));
  q.push_back(number(4, kStage1, "32 lanes on one float",
                     "Every lane of a warp reads the same float, m[0][0]. How many wavefronts does the load cost? "
                     "(A common belief: a 32-way conflict.)",
                     1, loads(4, 0),
                     "1: lanes on the same word are served together (a broadcast), whatever their number. A conflict "
                     "needs different words in one bank."));
  // ---- stage 2 ----
  q.push_back(number(5, kStage2, "stride 16",
                     "Lane t of a full warp reads the float at word 16 * t. How many wavefronts?", 16, loads(4, 16),
                     "gcd(16, 32) = 16: the lanes use only banks 0 and 16, 16 different words each, so a 16-way "
                     "conflict and 16 wavefronts."));
  q.push_back(number(6, kStage2, "stride 6",
                     "Lane t of a full warp reads the float at word 6 * t. How many wavefronts?", 2, loads(4, 6),
                     "gcd(6, 32) = 2: 32 / 2 = 16 banks are used, 2 words each: a 2-way conflict, 2 wavefronts. Only "
                     "the factors of 2 in the stride matter."));
  q.push_back(number(7, kStage2, "stride 2 on half a warp",
                     "Only lanes 0-15 are active; lane t reads the float at word 2 * t. How many wavefronts?", 1,
                     loads(4, 2, 0, 0x0000ffffu),
                     "1: the gcd law assumes 32 active lanes. The 16 lanes read words 0, 2, ..., 30, each in a bank "
                     "of its own, so nothing conflicts."));
  q.push_back(choice(8, kStage2, "what a broadcast is",
                     "Which statement about several lanes reading the same 4-byte word is true?",
                     {"a) the reads are served one after another", "b) it is a conflict unless all 32 lanes read it",
                      "c) the word is delivered to all of them at once: no conflict",
                      "d) it only helps for writes"},
                     "c",
                     "The word is read once and delivered to every lane that asked (a broadcast, for any number of "
                     "lanes); stores to one word cost nothing extra either, but which lane's value lands is "
                     "undefined."));
  // ---- stage 3 ----
  q.push_back(number(9, kStage3, "column of a 32x32 tile",
                     "float m[32][32]; lane t reads m[t][0]. How many wavefronts?", 32, loads(4, 32),
                     "Row t starts at word 32 t, so every lane is in bank 0 with a different word: a 32-way conflict, "
                     "32 wavefronts."));
  q.push_back(number(10, kStage3, "column of a 32x33 tile",
                     "float m[32][33]; lane t reads m[t][0]. How many wavefronts?", 1, loads(4, 33),
                     "Row t starts at word 33 t, in bank t: the 32 lanes use 32 banks, one wavefront."));
  q.push_back(choice(11, kStage3, "why 33 works",
                     "Why does a row length of 33 floats make the column read conflict-free?",
                     {"a) 33 is prime", "b) the padding gives shared memory more capacity",
                      "c) 33 is coprime to 32, so each row starts one bank further",
                      "d) the compiler reorders the accesses"},
                     "c",
                     "gcd(33, 32) = 1: consecutive rows start one bank apart, so a column visits all 32 banks. Being "
                     "prime is not the point: a row of 31 or 35 floats works too, one of 34 does not."));
  q.push_back(number(12, kStage3, "diagonal of a 32x33 tile",
                     "float m[32][33]; lane t reads the diagonal element m[t][t]. How many wavefronts? (Padding is "
                     "not a universal fix.)",
                     2, loads(4, 34),
                     "m[t][t] is word 33 t + t = 34 t: gcd(34, 32) = 2, a 2-way conflict. In m[32][32] the diagonal "
                     "(word 33 t) is conflict-free. Work out the stride of the access, then its gcd with 32."));
  // ---- stage 4 ----
  q.push_back(number(13, kStage4, "a column of the swizzled tile",
                     "A 32x32 float tile is stored XOR-swizzled: logical (row, col) at physical (row, col ^ row). "
                     "Lane t reads logical (t, 5). How many wavefronts?",
                     1, swizzled_column(5),
                     "Lane t reads physical column 5 ^ t, in bank 5 ^ t: for a fixed column the 32 rows give 32 "
                     "different banks (t1 != t2 means 5 ^ t1 != 5 ^ t2), so one wavefront, with no extra memory."));
  q.push_back(choice(14, kStage4, "swizzling one side only",
                     "A kernel writes its tile swizzled (col ^ row) but reads it back with plain (row, col). What "
                     "happens?",
                     {"a) it does not compile", "b) it runs and returns wrong data, with no error",
                      "c) it runs correctly but with bank conflicts", "d) the GPU reports a misaligned access"},
                     "b",
                     "Both paths must use the same map: the read then fetches (row, col) where (row, col ^ row) was "
                     "stored, a different element. Nothing faults; put the map in one function and use it on both "
                     "sides."));
  // ---- stage 5 ----
  q.push_back(number(15, kStage5, "a warp of float4 loads",
                     "Lane t loads the float4 at index t (16 bytes each, no two lanes on one word). How many "
                     "wavefronts on an H200?",
                     4, loads(16, 1),
                     "4, and no conflict: 16-byte accesses are served a quarter-warp at a time (8 lanes x 16 bytes = "
                     "128 bytes per wavefront). Wider types save instructions, not wavefronts."));
  q.push_back(number(16, kStage5, "a double broadcast",
                     "Every lane loads the same double (8 bytes). How many wavefronts on an H200?", 1, loads(8, 0),
                     "1: when every lane's partner (lane t ^ 1) reads the same address, the two half-warps merge into "
                     "one group. A float4 broadcast costs 2; broadcast stores never merge."));
  q.push_back(number(17, kStage5, "column of a double[32][33] tile",
                     "double m[32][33]; lane t reads m[t][0]. How many wavefronts? (A common claim: +1 is not enough "
                     "for doubles, pad by 2.)",
                     2, loads(8, 33),
                     "2, which is the ideal for 8-byte accesses (two half-warps): +1 padding already removes every "
                     "conflict. double m[32][34] costs 4, a 2-way conflict."));
  // ---- measuring and fixing ----
  q.push_back(choice(18, kTools, "diagnosing conflicts",
                     "Which of these show whether a kernel has shared-memory bank conflicts? (Give every right "
                     "letter.)",
                     {"a) Nsight Compute's shared wavefront and bank-conflict counters",
                      "b) timing the kernel with and without padding",
                      "c) working out the banks of the source's index expressions",
                      "d) comparing the kernel's shared memory size with the GPU's capacity"},
                     "a b c",
                     "Counters, an A/B timing and the arithmetic of the indices all show conflicts; capacity says "
                     "nothing about banks. On Hopper use Nsight Compute (nvprof does not support compute capability "
                     "7.5 and later), and read the instrumented smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared "
                     "counters: the hardware l1tex__data_bank_conflicts counters also count wavefronts that "
                     "concurrent global traffic causes."));
  q.push_back(choice(19, kTools, "fixing conflicts",
                     "Which of these can remove a bank conflict? (Give every right letter.)",
                     {"a) padding the row length", "b) reading along a row instead of down a column",
                      "c) launching larger blocks", "d) an XOR swizzle of the column index"},
                     "a b d",
                     "Padding, a row-wise access pattern and a swizzle all change which banks the lanes hit; the "
                     "block size does not change the addresses one warp instruction uses."));
  q.push_back(choice(20, kTools, "what a conflict costs",
                     "A loop of shared loads has a 32-way conflict on every load. What slows down 32 times?",
                     {"a) the whole kernel, always", "b) each conflicting shared-memory instruction",
                      "c) only the first access of each warp", "d) global memory accesses of the same warp"},
                     "b",
                     "Each conflicting instruction takes 32 wavefronts instead of 1 (on an H200, a shared-load-bound "
                     "loop takes as many cycles as wavefronts). The kernel as a whole slows by less, by how much its "
                     "time is shared-memory bound: the stage 3 transpose is about 2.2 times slower conflicted."));
  q.push_back(choice(21, kTools, "banks and global memory",
                     "A kernel is slow and its warps read global memory with a stride of 32 floats. Which is true?",
                     {"a) it has a 32-way bank conflict, like shared memory with that stride",
                      "b) global memory has no banks in this sense: the cost is coalescing (how many 32-byte "
                      "sectors a warp touches)",
                      "c) padding the global array by one float removes the conflict",
                      "d) local memory would avoid it, because local memory is banked on-chip storage"},
                     "b",
                     "Banks are shared memory's. A warp's global access costs the 32-byte sectors (of 128-byte lines) "
                     "it touches: a stride of 32 floats touches 32 sectors, uncoalesced. Local memory lives in "
                     "device memory too (cached in L1 and L2)."));
  return q;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "a, c  b" -> "a b c"; "" if something else than letters a-d is there.
std::string letters(const std::string& text, std::string& bad) {
  std::string found;
  for (char c : lower(text)) {
    if (c == ',' || c == ' ' || c == '\t') continue;
    if (c >= 'a' && c <= 'd') {
      if (found.find(c) == std::string::npos) found += c;
    } else {
      bad = std::string(1, c);
      return "";
    }
  }
  std::sort(found.begin(), found.end());
  std::string out;
  for (char c : found) out += (out.empty() ? "" : " ") + std::string(1, c);
  return out;
}

std::string wrap(const std::string& text, const std::string& prefix, std::size_t width = 78) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() + prefix.size() > width) {
      out += prefix + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += prefix + line + "\n";
  return out;
}

Outcome judge(const Question& q, const std::map<int, std::string>& answers) {
  const auto found = answers.find(q.number);
  const std::string given = found == answers.end() ? "" : found->second;
  if (given.empty()) {
    return Outcome::fail("not answered: write your answer after \"" + std::to_string(q.number) + ":\"");
  }
  std::string verdict;
  if (q.kind == Kind::kNumber) {
    std::size_t used = 0;
    long value = 0;
    try {
      value = std::stol(given, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != given.size()) return Outcome::fail("\"" + given + "\" is not a whole number: answer with one number");
    if (std::to_string(value) == q.answer) return Outcome::pass("your answer: " + given);
    verdict = "your answer: " + given + "; the right one: " + q.answer;
  } else {
    std::string bad;
    const std::string picked = letters(given, bad);
    if (!bad.empty()) {
      return Outcome::fail("\"" + given + "\": answer with " +
                           (q.kind == Kind::kChoice ? std::string("one letter, a to d")
                                                    : std::string("letters a to d, separated by spaces")));
    }
    if (q.kind == Kind::kChoice && picked.size() > 1) {
      return Outcome::fail("\"" + given + "\": this question has one right answer; give one letter");
    }
    if (picked == q.answer) return Outcome::pass("your answer: " + picked);
    verdict = "your answer: " + picked + "; the right " + (q.kind == Kind::kChoice ? "one: " : "ones: ") + q.answer;
  }
  std::string reason = verdict + "\n" + wrap("why: " + q.why, "");
  if (q.kind == Kind::kNumber) reason += "see it: " + banksim_command(q) + "\n";
  return Outcome::fail(reason);
}

}  // namespace

const std::vector<Question>& questions() {
  static const std::vector<Question> all = make_questions();
  return all;
}

int model_answer(const Question& q) {
  const AccessCost cost = price(q.access);
  if (q.measure == Measure::kWavefronts) return cost.wavefronts;
  return static_cast<int>(q.access.offsets[0] / kHopper.bank_width_bytes % kHopper.banks);
}

std::string banksim_command(const Question& q) {
  const WarpAccess& a = q.access;
  std::string command = "banksim --width " + std::to_string(a.width_bytes);
  if (a.op == MemOp::kStore) command += " --op st";
  // A stride over the active lanes when there is one, else the 32 offsets.
  std::vector<int> active;
  for (int l = 0; l < kWarpSize; ++l) {
    if (a.active(l)) active.push_back(l);
  }
  std::int64_t step = 0;
  if (active.size() > 1) step = (a.offsets[active[1]] - a.offsets[active[0]]) / (active[1] - active[0]);
  const std::int64_t base = active.empty() ? 0 : a.offsets[active[0]] - step * active[0];
  bool strided = !active.empty() && step % a.width_bytes == 0 && base >= 0;
  for (int l : active) strided = strided && a.offsets[l] == base + step * l;
  if (strided) {
    command += " --stride " + std::to_string(step / a.width_bytes);
    if (base != 0) command += " --base " + std::to_string(base);
    if (active.size() != kWarpSize) {
      std::string lanes = format_lanes(a.active_mask());
      std::replace(lanes.begin(), lanes.end(), ' ', ',');
      command += " --lanes " + lanes;
    }
    return command;
  }
  command += " --offsets \"";
  for (int l = 0; l < kWarpSize; ++l) {
    command += (l == 0 ? "" : " ") + (a.active(l) ? std::to_string(a.offsets[l]) : std::string("-"));
  }
  return command + "\"";
}

std::string answers_template() {
  std::ostringstream out;
  out << "# BankLab quiz: write each answer after its number, then run\n"
         "#     build/grader/grader --lab quiz\n"
         "# A letter (a to d) where there are choices, every right letter where it says\n"
         "# so (\"a c\"), a whole number where it asks for one. Lines starting with # are\n"
         "# comments. The handouts (handouts/) and banksim answer every question.\n";
  std::string part;
  for (const Question& q : questions()) {
    if (q.part != part) {
      part = q.part;
      out << "\n# ==== " << part << " ====\n";
    }
    out << "\n" << wrap(std::to_string(q.number) + ". " + q.text, "# ");
    for (const std::string& c : q.choices) out << "#     " << c << "\n";
    out << q.number << ":\n";
  }
  return out.str();
}

std::map<int, std::string> read_answers(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw AnswersError(path + ": cannot read the answers file (is the path right?)");
  std::map<int, std::string> answers;
  std::map<int, int> line_of;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string text = trim(line);
    if (text.empty() || text[0] == '#') continue;
    const auto colon = text.find(':');
    std::string label = trim(text.substr(0, colon == std::string::npos ? 0 : colon));
    if (!label.empty() && (label[0] == 'Q' || label[0] == 'q')) label.erase(0, 1);
    const bool numeric = !label.empty() && std::all_of(label.begin(), label.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    const std::string where = path + ":" + std::to_string(n) + ": ";
    if (colon == std::string::npos || !numeric) {
      throw AnswersError(where + "cannot read \"" + text + "\": write the question's number, a colon and the " +
                         "answer, like \"3: 13\" (comments start with #)");
    }
    const int number = std::stoi(label);
    if (number < 1 || number > static_cast<int>(questions().size())) {
      throw AnswersError(where + "there is no question " + label + " (the quiz has questions 1 to " +
                         std::to_string(questions().size()) + ")");
    }
    if (line_of.count(number)) {
      throw AnswersError(where + "question " + label + " is answered twice (also on line " +
                         std::to_string(line_of[number]) + "): keep one answer");
    }
    line_of[number] = n;
    answers[number] = trim(text.substr(colon + 1));
  }
  return answers;
}

Rubric rubric() {
  Rubric r;
  r.lab = 0;
  r.title = "quiz";
  for (const Question& q : questions()) {
    if (std::find(r.parts.begin(), r.parts.end(), q.part) == r.parts.end()) r.parts.push_back(q.part);
    Check c;
    c.name = "Q" + std::to_string(q.number) + " " + q.title;
    c.part = q.part;
    c.points = 1;
    r.checks.push_back(std::move(c));
  }
  return r;
}

GradeResult grade(const Rubric& rubric, const std::map<int, std::string>& answers, const std::string& path) {
  GradeResult result;
  result.rubric = &rubric;
  result.implementation = path;
  for (std::size_t i = 0; i < rubric.checks.size(); ++i) {
    CheckResult r;
    r.check = &rubric.checks[i];
    r.outcome = judge(questions()[i], answers);
    r.score = r.outcome.status == Status::kPass ? r.check->points : 0;
    result.score += r.score;
    result.max_score += r.check->points;
    result.results.push_back(std::move(r));
  }
  return result;
}

}  // namespace banklab::grader::quiz
