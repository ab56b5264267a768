// grader: grades a BankLab stage on the CPU emulator or on a GPU.
//   grader --lab 3                       the student's labs/03-padded-transpose/transpose.cu
//   grader --lab 3 --solutions           the reference
//   grader --lab 3 --impl FILE.cu        any implementation (built on the spot)
//   grader --lab all --format gradescope
#include <malloc.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <nlohmann/json.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "batch.hpp"
#include "hints.hpp"
#include "class_report.hpp"
#include "gpu_lock.hpp"
#include "builder.hpp"
#include "contract.hpp"
#include "export_program.hpp"
#include "source_check.hpp"
#include "output.hpp"
#include "process.hpp"
#include "quiz.hpp"
#include "rubric.hpp"
#include "shard.hpp"
#include "variant.hpp"

namespace {

using namespace banklab::grader;

constexpr int kUsageError = 2;

struct BackendChoice {
  Backend backend = Backend::kCpu;
  std::string reason;
};

// auto: the GPU when one is usable, else the CPU emulator, saying why.
BackendChoice choose_backend(const Config& config, const std::string& requested, const std::vector<int>& labs) {
  if (requested == "cpu") return {Backend::kCpu, "chosen with --backend cpu"};
  std::string why_not;
  for (int n : labs) {
    // The GPU checks time the kernel against the reference kernels: the
    // student kit ships them compiled (make_student_kit.sh), or not at all
    // when it was made without nvcc.
    if (has_gpu_reference(config, config.labs.at(n))) continue;
    why_not = "this kit has no compiled reference kernels for stage " + std::to_string(n) + " (" +
              reference_object_path(config.labs.at(n)) + "; the GPU checks time yours against them)";
    if (requested == "gpu") throw std::runtime_error("--backend gpu: " + why_not + "; use --backend cpu");
    return {Backend::kCpu, why_not + ", so the CPU emulator"};
  }
  const std::string& probe = config.gpu_probe;
  if (config.nvcc.empty() || !std::filesystem::exists(probe)) {
    why_not = "this build has no CUDA compiler";
  } else {
    // The probe opens a CUDA context: not while another grader times a kernel there.
    const ProcessResult r = [&] {
      const GpuLock turn(gpu_lock_key(), "probe");
      return run_process({probe}, 60);
    }();
    nlohmann::json answer;
    try {
      answer = nlohmann::json::parse(r.out);
    } catch (const nlohmann::json::exception&) {
      answer = {{"devices", 0}, {"error", "the GPU probe " + r.describe(60)}};
    }
    if (answer.value("devices", 0) > 0) {
      return {Backend::kGpu, (requested == "gpu" ? "chosen with --backend gpu: " : "GPU found: ") +
                                 answer.value("name", std::string("GPU")) + ", compute capability " +
                                 answer.value("compute_capability", std::string("?"))};
    }
    why_not = "no usable GPU: CUDA says \"" + answer.value("error", std::string("no device")) + "\"";
  }
  if (requested == "gpu") {
    throw std::runtime_error("--backend gpu: " + why_not + "; use --backend cpu (the CPU emulator) on this machine");
  }
  return {Backend::kCpu, why_not + ", so the CPU emulator"};
}

// A lab file is a few hundred lines: one of megabytes is not one (a binary,
// a generated file) and would only keep the compiler busy until the build's
// time limit; it is refused at once, as a build failure with a message.
constexpr std::uintmax_t kMaxLabFileBytes = std::uintmax_t{1} << 20;

void refuse_oversized(const std::string& implementation) {
  std::error_code error;
  const std::uintmax_t bytes = std::filesystem::file_size(implementation, error);
  if (error || bytes <= kMaxLabFileBytes) return;  // a missing file is the builder's to report
  throw BuildError(std::filesystem::path(implementation).filename().string() + " is " + std::to_string(bytes) +
                       " bytes: a lab file may be at most 1 MiB",
                   "hand in the lab's .cu file itself (a text file of C++/CUDA code), not a binary or generated file");
}

// A number of the option's unit from `low` to `high`, written as a plain
// number: "1e20", "nan", "inf" and "-1" are refused with the range in words
// (CLI11's own range check prints the limits of a double, 309 digits).
CLI::Validator number_from(double low, double high, const std::string& unit, bool low_included) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(text.c_str(), &end);
        std::ostringstream range;
        range << (low_included ? "from " : "more than ") << low << (low_included ? " to " : " and at most ") << high << " " << unit;
        if (text.empty() || end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(value))
          return "'" + text + "' is not a number; give " + range.str();
        if (value > high || value < low || (!low_included && value == low))
          return "'" + text + "' is out of range; give " + range.str();
        return "";
      },
      "NUMBER");
}

// A seed: 0 to 2^64-1 in decimal digits. "-5" is refused (it would wrap
// around to 18446744073709551611).
CLI::Validator seed_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const bool digits = !text.empty() && text.size() <= 20 &&
                            std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
        errno = 0;
        if (digits) (void)std::strtoull(text.c_str(), nullptr, 10);
        if (!digits || errno == ERANGE)
          return "'" + text + "' is not a seed; give a whole number from 0 to 18446744073709551615";
        return "";
      },
      "SEED");
}

// --impl names a file of the lab: a folder or a missing path is a usage
// error that says what to give instead.
void check_impl_path(const std::string& impl, const std::string& lab_file) {
  std::error_code error;
  if (std::filesystem::is_directory(impl, error)) {
    const std::filesystem::path inside = std::filesystem::path(impl) / lab_file;
    throw std::invalid_argument("--impl " + impl + " is a folder; give the lab's file itself" +
                                (std::filesystem::is_regular_file(inside, error)
                                     ? ": --impl " + inside.string()
                                     : " (e.g. --impl " + inside.string() + ")") +
                                ", or grade a folder of submissions with --submissions");
  }
  if (!std::filesystem::exists(impl, error)) {
    throw std::invalid_argument("--impl " + impl + ": no such file (give the path of the lab's file, e.g. " +
                                lab_file + ")");
  }
}

// The points of a rubric: all of them, and those the CPU emulator checks.
double total_points(const Rubric& rubric, bool gpu) {
  double total = 0;
  for (const Check& c : rubric.checks) {
    if (gpu || !c.gpu_only) total += c.points;
  }
  return total;
}

void print_list(const Rubric& rubric) {
  std::cout << "lab " << rubric.lab << " (" << rubric.title << ")\n";
  for (const std::string& part : rubric.parts) {
    std::cout << "== " << part << " ==\n";
    for (const Check& c : rubric.checks) {
      if (c.part != part) continue;
      std::cout << "  " << c.points << " points  " << c.name << (c.gpu_only ? "  [GPU only]" : "");
      if (!c.needs.empty()) std::cout << "  (needs: " << c.needs.front() << ")";
      std::cout << "\n";
    }
  }
  std::cout << "total: " << total_points(rubric, true) << " points (" << total_points(rubric, false)
            << " on the CPU emulator, the rest needs a GPU)\n";
}

// --visibility PATTERN=WHEN, applied to the rubric's checks in order: a
// part's name, a check's name, or the start of a check's name ending in '*'.
void apply_visibility(Rubric& rubric, const std::vector<std::string>& settings) {
  static const std::vector<std::string> kinds = {"visible", "hidden", "after_due_date", "after_published"};
  for (const std::string& setting : settings) {
    const auto equals = setting.rfind('=');
    const std::string pattern = equals == std::string::npos ? "" : setting.substr(0, equals);
    const std::string when = equals == std::string::npos ? "" : setting.substr(equals + 1);
    if (pattern.empty() || std::find(kinds.begin(), kinds.end(), when) == kinds.end()) {
      throw std::invalid_argument("--visibility " + setting +
                                  ": give PART_OR_CHECK=WHEN, WHEN one of visible, hidden, after_due_date, "
                                  "after_published (e.g. --visibility predictions=after_due_date)");
    }
    for (const Check& c : rubric.checks) {
      const bool prefix = pattern.back() == '*' && c.name.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
      if (c.part == pattern || c.name == pattern || prefix) rubric.visibility[c.name] = when;
    }
  }
}

// The report in the format asked for.
std::string total_line(const std::vector<GradeResult>& results);

void print_report(std::ostream& out, const std::string& format, const std::vector<GradeResult>& results,
                  bool verbose) {
  if (format == "text") {
    for (const GradeResult& r : results) out << format_text(r, verbose);
    if (results.size() > 1) out << total_line(results) << "\n";
  } else if (format == "json") {
    out << json_text(format_json(results)) << "\n";
  } else if (format == "gradescope") {
    out << json_text(format_gradescope(results)) << "\n";
  } else if (format == "prairielearn") {
    out << json_text(format_prairielearn(results)) << "\n";
  } else if (format == "autolab") {
    out << format_autolab(results);
  } else {
    out << format_junit(results);
  }
}

// --text-report PATH: the text report too, whatever --format says.
void write_text_report(const std::string& path, const std::vector<GradeResult>& results, bool verbose) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  for (const GradeResult& r : results) file << format_text(r, verbose);
  if (!file) throw std::runtime_error("--text-report " + path + ": cannot write it");
}

// grader --lab quiz: the answers file graded against the quiz's key.
int grade_quiz(const Config& config, const std::string& impl, bool solutions, const std::string& submissions,
               bool list, const std::string& format, bool verbose, const std::vector<std::string>& visibility,
               const std::string& text_report) {
  Rubric rubric = quiz::rubric();
  apply_visibility(rubric, visibility);
  if (list) {
    std::cout << "quiz: " << rubric.checks.size() << " questions, 1 point each\n";
    for (const std::string& part : rubric.parts) {
      std::cout << "== " << part << " ==\n";
      for (const Check& c : rubric.checks) {
        if (c.part == part) std::cout << "  " << c.points << " point  " << c.name << "\n";
      }
    }
    return 0;
  }
  if (!submissions.empty()) {
    throw std::invalid_argument("--submissions grades stages; grade each quiz answers file with --lab quiz --impl FILE");
  }
  const std::string path = !impl.empty() ? impl
                           : solutions   ? config.source_dir + "/solutions/quiz/answers.txt"
                                         : config.source_dir + "/labs/quiz/answers.txt";
  std::map<int, std::string> answers;
  try {
    answers = quiz::read_answers(path);
  } catch (const quiz::AnswersError& error) {
    std::cerr << "grader: " << error.what() << "\n";
    // An LMS reads stdout: a file it cannot read is a result of 0 saying why.
    if (format != "text") print_report(std::cout, format, {unbuilt_result(rubric, path, "cpu", "", 0, error.what())}, verbose);
    return kUsageError;
  }
  const std::vector<GradeResult> results = {quiz::grade(rubric, answers, path)};
  print_report(std::cout, format, results, verbose);
  if (!text_report.empty()) write_text_report(text_report, results, verbose);
  return results[0].full_marks() ? 0 : 1;
}

// --lab all's quiz: labs/quiz/answers.txt (the key with --solutions). A file
// the quiz cannot read is graded as unanswered, after saying why on stderr,
// so that the stages' results still come.
GradeResult grade_quiz_file(const Rubric& rubric, const Config& config, bool solutions) {
  const std::string path = quiz::sheet_to_grade(config.source_dir, solutions);
  std::map<int, std::string> answers;
  try {
    answers = quiz::read_answers(path);
  } catch (const quiz::AnswersError& error) {
    std::cerr << "grader: the quiz is graded as unanswered: " << error.what() << "\n";
  }
  return quiz::grade(rubric, answers, path);
}

// "Total: 250/564 over 6 stages and the quiz (... skipped)"; the quiz is the last result.
std::string total_line(const std::vector<GradeResult>& results) {
  double score = 0, max_score = 0, skipped = 0;
  for (const GradeResult& r : results) {
    score += r.score;
    max_score += r.max_score;
    skipped += r.skipped_points;
  }
  const auto text = [](double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  };
  std::string line = "Total: " + text(score) + "/" + text(max_score) + " over " + std::to_string(results.size() - 1) +
                     " stages and the quiz";
  if (skipped > 0) line += " (" + text(skipped) + " points of checks skipped on this backend)";
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  // A runner's answer is read, copied and decoded in buffers of megabytes,
  // run after run: kept in the heap (not mapped and unmapped each time),
  // their pages are reused instead of faulted in fresh (a fifth of a cached
  // stage's grader time went to page faults).
  mallopt(M_MMAP_THRESHOLD, 512 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  adopt_orphans();  // whatever a check's program detaches is ended with the check
  CLI::App app{
      "grader: grades a BankLab stage (correctness, shared-memory behaviour, performance)\n"
      "on the CPU emulator (any Linux machine) or on an NVIDIA GPU.\n"
      "Exit status: 0 at full marks, 1 below, 2 for usage errors or a lab that does not build.",
      "grader"};
  std::string lab_text;
  bool solutions = false;
  std::string impl;
  std::string backend = "auto";
  std::string format = "text";
  std::optional<std::uint64_t> seed;
  bool verbose = false;
  bool list = false;
  bool build_only = false;
  bool quiz_template = false;
  double time_limit = 60;
  double memory_limit_gib = 4;
  double build_time_limit = 300;
  std::string submissions;
  std::string gradebook;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool regrade = false;
  std::string hint_text;
  std::string text_report;
  std::vector<std::string> visibility;
  // Required, except by the commands that read gradebooks (checked after parsing).
  app.add_option("--lab", lab_text, "the stage to grade: 3, or all; quiz grades labs/quiz/answers.txt");
  auto* solutions_opt = app.add_flag("--solutions", solutions, "grade the reference solution (solutions/)");
  auto* impl_opt = app.add_option("--impl", impl, "grade this implementation file of the lab (built on the spot)")
                       ->excludes(solutions_opt);
  auto* submissions_opt =
      app.add_option("--submissions", submissions,
                     "grade a folder of submissions (NAME.cu, or NAME/ holding the lab file) into a gradebook")
          ->excludes(solutions_opt)
          ->excludes(impl_opt);
  app.add_option("--gradebook", gradebook,
                 "with --submissions: write PATH.csv and PATH.json (default: FOLDER/gradebook)")
      ->needs(submissions_opt);
  app.add_option("-j,--jobs", jobs, "with --submissions: submissions graded at once (default: the CPU count)")
      ->check(CLI::PositiveNumber)
      ->needs(submissions_opt);
  app.add_flag("--regrade", regrade, "with --submissions: grade unchanged submissions again")->needs(submissions_opt);
  std::string variant_from;
  std::string variant_salt;
  bool show_variant = false;
  bool variant_from_name = false;
  auto* variant_opt = app.add_option("--variant-from", variant_from,
                                     "grade the variant of this student's name or id (stages with variants; see "
                                     "--show-variant)")
                          ->excludes(submissions_opt);
  app.add_option("--variant-salt", variant_salt,
                 "the course's secret mixed into every variant (default: $BANKLAB_VARIANT_SALT, else none)");
  app.add_flag("--show-variant", show_variant, "with --variant-from: print the student's parameters, then stop")
      ->needs(variant_opt);
  app.add_flag("--variant-from-name", variant_from_name,
               "with --submissions: grade each student on the variant of their submission's name")
      ->needs(submissions_opt);
  std::string report;
  std::vector<std::string> merge;
  std::string output;
  double similarity = 0.7;
  auto* report_opt = app.add_option(
      "--report", report,
      "write the class report of a gradebook (PATH.json or PATH.csv of --submissions): an HTML page with the\n"
      "score histogram, pass rate per check, common failure messages and similar submissions (-o: where)");
  app.add_option("--similarity", similarity,
                 "with --report: flag pairs sharing at least this fraction of fingerprints (default 0.7)")
      ->check(CLI::Range(0.0, 1.0))
      ->needs(report_opt);
  auto* merge_opt = app.add_option("--merge", merge,
                                   "merge gradebooks (the --shard runs of one class) into the one -o names")
                        ->excludes(report_opt);
  app.add_option("-o,--output", output, "with --report: the HTML page (default: beside the gradebook, PATH.html);\n"
                                        "with --merge: the merged gradebook, PATH.csv and PATH.json");
  std::string shard_text;
  app.add_option("--shard", shard_text,
                 "with --submissions: grade the K-th of N equal shares of the class (K/N, 1 <= K <= N;\n"
                 "default gradebook FOLDER/gradebook-shard-K-of-N; join them with --merge)")
      ->needs(submissions_opt);
  (void)merge_opt;
  app.add_option("--backend", backend, "auto (GPU if usable, else CPU), cpu or gpu")
      ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
  app.add_option("--format", format,
                 "text, json, gradescope (results.json), junit, prairielearn (results.json of an external grader)\n"
                 "or autolab (the report, then the {\"scores\": ...} line)")
      ->check(CLI::IsMember({"text", "json", "gradescope", "junit", "prairielearn", "autolab"}));
  app.add_option("--text-report", text_report, "also write the text report to PATH (with any --format)");
  app.add_option("--visibility", visibility,
                 "PART_OR_CHECK=WHEN: who sees a check's result on Gradescope (visible, hidden, after_due_date,\n"
                 "after_published); a part's name, a check's name, or a name's start ending in '*' (repeatable;\n"
                 "default: predictions after_due_date, the rest visible)");
  app.add_option("--seed", seed, "seed of the random inputs (default: random, always printed)")->check(seed_number());
  app.add_flag("--verbose", verbose, "show every check's details, also when it passes");
  app.add_flag("--list", list, "list the checks of the lab and their points, then stop");
  auto* hint_opt = app.add_option("--hint", hint_text,
                                  "after the report, a hint for the first failing check; --hint 2, 3: the next, "
                                  "more direct ones")
                       ->expected(0, 1);
  app.add_flag("--template", quiz_template,
               "with --lab quiz: print an empty answers file (a fresh labs/quiz/answers.txt), then stop");
  std::string export_dir;
  app.add_option("--export-program", export_dir,
                 "write DIR: a whole program (program.cu with main, your file, a README) that launches your\n"
                 "kernels as the grader does, for banklab run, nvcc, ncu and compute-sanitizer; then stop");
  bool check_only = false;
  app.add_flag("--check-source", check_only,
               "run the source check only and record its verdict (build/grader/source_verdicts/), then stop:\n"
               "a GPU machine without libclang grades the file with that verdict");
  app.add_flag("--build-only", build_only,
               "build the implementation for the CPU emulator and (where nvcc is) the GPU, then stop:\n"
               "prepares a build folder for a GPU machine that has no compilers");
  std::string kit_references;
  std::string kit_architectures = "75,80,86,89,90,100,120";
  auto* kit_opt = app.add_option("--kit-references", kit_references,
                 "write the stages' reference kernels, compiled (device code and PTX, no source), into the\n"
                 "student kit KIT_DIR (grader/labs/labNN/reference/), then stop (make_student_kit.sh)");
  app.add_option("--kit-architectures", kit_architectures,
                 "with --kit-references: the GPU architectures, comma-separated (default 75,...,120)")
      ->needs(kit_opt);
  app.add_option("--time-limit", time_limit, "seconds each check may run (default 60; at most 86400)")
      ->check(number_from(0, 86400, "seconds", false));
  app.add_option("--memory-limit", memory_limit_gib,
                 "GiB of memory a check's program may use before it is stopped (default 4; 0: no limit)")
      ->check(number_from(0, 4096, "GiB", true));
  app.add_option("--build-time-limit", build_time_limit, "seconds each build step may take (default 300)")
      ->check(number_from(0, 86400, "seconds", false));
  unsigned runner_jobs = 0;
  app.add_option("--runner-jobs", runner_jobs,
                 "emulator runs of a stage run side by side, N at a time (default 0: as many as the machine has\n"
                 "idle cores, at most 4; 1: one after another)")
      ->check(CLI::Range(0u, 64u));
  // The student kit has no reference solutions: its --help leaves out the
  // instructor's options (they still parse, and say what is missing).
  try {
    const Config config = load_config(argv[0]);
    if (!std::filesystem::exists(config.source_dir + "/solutions")) {
      for (const char* name : {"--solutions", "--submissions", "--gradebook", "--jobs", "--regrade", "--shard",
                               "--kit-references", "--kit-architectures", "--variant-from-name"})
        app.get_option(name)->group("");
    }
  } catch (const std::exception&) {
    // no config: the error comes after parsing, with the usage errors
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);
    std::cerr << "grader: error: " << error.what() << " (see grader --help)\n";
    return kUsageError;
  }

  try {
    if (!report.empty() || !merge.empty()) {
      if (!lab_text.empty() || !submissions.empty()) {
        throw std::invalid_argument(std::string(report.empty() ? "--merge" : "--report") +
                                    " reads gradebooks: the lab is theirs; leave out --lab and --submissions");
      }
      if (!merge.empty()) {
        if (output.empty()) throw std::invalid_argument("--merge needs -o PATH: where to write the merged gradebook");
        return merge_gradebooks(merge, output);
      }
      ReportOptions options;
      options.gradebook = report;
      options.output = output;
      options.similarity_threshold = similarity;
      return write_class_report(load_config(argv[0]), options);
    }
    if (lab_text.empty()) {
      std::cerr << "grader: error: --lab is required (see grader --help)\n";
      return kUsageError;
    }
    const Config config = load_config(argv[0]);
    if (lab_text == "quiz") {
      if (variant_opt->count() > 0 || variant_from_name) {
        throw std::invalid_argument("the quiz has no variants: every student answers the same questions; leave out "
                                    "--variant-from");
      }
      if (quiz_template) {
        std::cout << quiz::answers_template();
        return 0;
      }
      return grade_quiz(config, impl, solutions, submissions, list, format, verbose, visibility, text_report);
    }
    if (quiz_template) throw std::invalid_argument("--template is for the quiz: grader --lab quiz --template");
    int hint_level = 1;
    if (!hint_text.empty()) {
      std::size_t used = 0;
      try {
        hint_level = std::stoi(hint_text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != hint_text.size() || hint_level < 1) {
        throw std::invalid_argument("--hint " + hint_text + ": give the hint's step, 1 or more (--hint, --hint 2)");
      }
    }
    if (hint_opt->count() > 0 && format != "text") {
      throw std::invalid_argument("--hint adds to the text report; leave out --format " + format);
    }
    std::vector<int> labs;
    if (lab_text == "all") {
      for (const auto& [number, files] : config.labs) labs.push_back(number);
      if (!impl.empty()) throw std::invalid_argument("--impl needs one lab (--lab N), not --lab all");
    } else {
      int number = 0;
      try {
        number = std::stoi(lab_text);
      } catch (const std::exception&) {
        throw std::invalid_argument("--lab: '" + lab_text + "' is not a stage number (1 to 5) or all");
      }
      if (!config.labs.count(number)) {
        std::string available;
        for (const auto& [n, files] : config.labs) available += (available.empty() ? "" : ", ") + std::to_string(n);
        throw std::invalid_argument("--lab " + lab_text + ": this stage is not available yet; available: " + available);
      }
      labs.push_back(number);
    }
    // A student's variant: its values reach the lab file as -D macros (every
    // compile of it: the source check, the build and its cache key), the
    // runners as command-line values and the rubric as its parameters.
    if (variant_salt.empty()) {
      const char* from_environment = std::getenv("BANKLAB_VARIANT_SALT");
      if (from_environment != nullptr) variant_salt = from_environment;
    }
    Variant variant;
    Config variant_config = config;
    if (variant_opt->count() > 0 || variant_from_name) {
      if (labs.size() != 1) throw std::invalid_argument("variants are per stage: give one lab (--lab N), not --lab all");
      const VariantSpace* space = variant_space_for(labs[0]);
      if (space == nullptr) {
        std::string with;
        for (int n : stages_with_variants()) with += (with.empty() ? "" : ", ") + std::to_string(n);
        throw std::invalid_argument("stage " + std::to_string(labs[0]) +
                                    " has no variants: every student gets the same stage; leave out " +
                                    (variant_from_name ? "--variant-from-name" : "--variant-from") +
                                    (with.empty() ? "" : " (stages with variants: " + with + ")"));
      }
      if (backend == "gpu") {
        throw std::invalid_argument("variants are graded on the CPU emulator (--backend cpu): the GPU runners and "
                                    "the reference they time are not built per variant yet");
      }
      if (variant_opt->count() > 0) {
        variant = derive_variant(*space, variant_from, variant_salt);
        const std::vector<std::string> defines = variant_defines(*space, variant);
        variant_config.kernel_flags.insert(variant_config.kernel_flags.end(), defines.begin(), defines.end());
        variant_config.variant_defines = defines;
        if (show_variant) {
          std::cout << describe_variant(*space, variant);
          if (variant_salt.empty()) {
            std::cout << "  (no course salt: anyone who knows the name can derive this variant)\n";
          }
          return 0;
        }
      }
      if (!export_dir.empty()) {
        throw std::invalid_argument("--export-program writes the stage as it is; leave out --variant-from");
      }
    }
    if (list) {
      double all = 0, cpu = 0;
      for (int n : labs) {
        print_list(rubric_for(n, variant));
        all += total_points(rubric_for(n, variant), true);
        cpu += total_points(rubric_for(n, variant), false);
      }
      if (labs.size() > 1)
        std::cout << "all labs: " << all << " points (" << cpu << " on the CPU emulator)\n";
      return 0;
    }
    if (!export_dir.empty()) {
      if (labs.size() != 1) throw std::invalid_argument("--export-program needs one lab (--lab N), not --lab all");
      const LabFiles& files = config.labs.at(labs[0]);
      const std::string implementation = !impl.empty() ? impl : config.lab_file(files, solutions);
      std::cout << export_program(config, files, implementation, export_dir) << "\nwritten: " << export_dir << "\n";
      return 0;
    }
    if (check_only) {
      for (int n : labs) {
        const LabFiles& files = config.labs.at(n);
        const std::string implementation = !impl.empty() ? impl : config.lab_file(files, solutions);
        try {
          refuse_oversized(implementation);
          const std::string how =
              check_source_tree_only(variant_config, implementation, build_time_limit, contract_for(n));
          std::cout << "lab " << n << " " << implementation << ": source check passed (" << how << ")\n";
        } catch (const BuildError& error) {
          std::cout << "lab " << n << " " << implementation << ": refused: " << error.what() << "\n";
        }
      }
      return 0;
    }
    if (build_only) {
      for (int n : labs) {
        const LabFiles& files = config.labs.at(n);
        const std::string implementation = !impl.empty() ? impl : config.lab_file(files, solutions);
        try {
          refuse_oversized(implementation);
          const RunnerBuilder builder(variant_config, build_time_limit);
          std::cout << "lab " << n << " CPU runner: " << builder.cpu_runner(files, implementation) << "\n";
          if (!config.nvcc.empty() && !variant.active())
            std::cout << "lab " << n << " GPU runner: " << builder.gpu_runner(files, implementation) << "\n";
        } catch (const BuildError& error) {
          std::cerr << "grader: " << error.what() << "\n" << error.output() << "\n";
          return kUsageError;
        }
      }
      return 0;
    }
    if (!kit_references.empty()) {
      // The student kit's compiled reference kernels (make_student_kit.sh).
      std::vector<std::string> archs;
      std::istringstream given(kit_architectures);
      for (std::string a; std::getline(given, a, ',');) {
        if (!a.empty()) archs.push_back(a);
      }
      const RunnerBuilder builder(config, build_time_limit);
      for (int n : labs) {
        const LabFiles& files = config.labs.at(n);
        if (!gpu_runner_needs_reference(files)) continue;
        const std::string relative =
            std::filesystem::relative(reference_object_path(files), config.source_dir).string();
        const std::string object = (std::filesystem::path(kit_references) / relative).string();
        try {
          builder.reference_object(files, archs, object);
        } catch (const BuildError& error) {
          std::cerr << "grader: " << error.what() << "\n" << error.output() << "\n";
          return kUsageError;
        }
        std::cout << "lab " << n << " reference kernels: " << object << " (sm_" << kit_architectures
                  << ", PTX compute_" << archs.front() << ")\n";
      }
      return 0;
    }
    const BackendChoice choice =
        variant.active() || variant_from_name
            ? BackendChoice{Backend::kCpu, backend == "cpu" ? "chosen with --backend cpu"
                                                            : "a variant is graded on the CPU emulator"}
            : choose_backend(config, backend, labs);
    const std::uint64_t the_seed = seed ? *seed : std::random_device{}() % 1000000000u;
    if (!submissions.empty()) {
      if (labs.size() != 1) throw std::invalid_argument("--submissions needs one lab (--lab N), not --lab all");
      if (format != "text") throw std::invalid_argument("--submissions writes a gradebook; --format does not apply");
      BatchOptions batch;
      batch.lab = labs[0];
      batch.folder = submissions;
      if (!shard_text.empty()) batch.shard = parse_shard(shard_text);
      batch.gradebook = !gradebook.empty() ? gradebook
                        : batch.shard ? (std::filesystem::path(submissions) /
                                         ("gradebook-shard-" + std::to_string(batch.shard->index) + "-of-" +
                                          std::to_string(batch.shard->count)))
                                            .string()
                                      : (std::filesystem::path(submissions) / "gradebook").string();
      batch.jobs = jobs;
      batch.regrade = regrade;
      batch.backend = choice.backend == Backend::kGpu ? "gpu" : "cpu";
      // A fixed seed for the whole batch (every student gets the same
      // inputs); a rerun keeps rows graded with the same seed.
      batch.seed = seed;
      batch.time_limit = time_limit;
      batch.memory_limit_gib = memory_limit_gib;
      batch.build_time_limit = build_time_limit;
      batch.variants = variant_from_name;
      batch.variant_salt = variant_salt;
      for (const Check& c : rubric_for(labs[0], variant).checks) {
        if (!c.gpu_only || choice.backend == Backend::kGpu) batch.max_score += c.points;
      }
      return grade_submissions(config, batch);
    }
    const bool show_progress = isatty(2) != 0;
    if (!impl.empty()) check_impl_path(impl, config.labs.at(labs[0]).file);

    std::vector<GradeResult> results;
    std::vector<Rubric> rubrics;
    rubrics.reserve(labs.size() + 1);  // results point into it
    bool any_unbuilt = false;
    for (int n : labs) {
      const LabFiles& files = config.labs.at(n);
      rubrics.push_back(rubric_for(n, variant));
      apply_visibility(rubrics.back(), visibility);
      const std::string implementation = !impl.empty() ? impl : config.lab_file(files, solutions);
      GradeContext context(variant_config, files, implementation, choice.backend, the_seed, time_limit, verbose);
      context.set_runner_jobs(runner_jobs);
      context.set_limits(static_cast<std::size_t>(memory_limit_gib * static_cast<double>(std::size_t{1} << 30)),
                         build_time_limit);
      try {
        refuse_oversized(implementation);
        context.build();
      } catch (const BuildError& error) {
        // Every format answers: the lab is a result of 0 with the message
        // (the text report keeps it on stderr, as before), and the other
        // labs of --lab all are still graded.
        std::cerr << "grader: " << error.what() << "\n" << error.output() << "\n";
        if (error.output().find("the grader never grades a file whose source was not checked") !=
            std::string::npos) {
          std::cerr << "grader: " << implementation << " was not graded (no source check on this machine)\n";
        } else if (error.compiler_error()) {
          std::cerr << "grader: fix the error above in " << implementation << " and run the grader again\n";
        } else {
          const bool slow = std::string(error.what()).find("time limit") != std::string::npos;
          std::cerr << "grader: nothing is wrong with " << implementation << " as far as the compiler said; "
                    << (slow ? "a slow machine? raise --build-time-limit\n"
                             : "the machine is: see the message above, then run the grader again\n");
        }
        // The report's message: what went wrong and the compiler's words,
        // without the build command (which names no error).
        std::string message = error.what();
        std::istringstream said(error.output());
        for (std::string line; std::getline(said, line);) {
          if (line.rfind("$ ", 0) != 0) message += "\n" + line;
        }
        while (!message.empty() && message.back() == '\n') message.pop_back();
        results.push_back(unbuilt_result(rubrics.back(), implementation,
                                         choice.backend == Backend::kGpu ? "gpu" : "cpu", choice.reason, the_seed,
                                         message));
        any_unbuilt = true;
        continue;
      }
      auto progress = [&](std::size_t i, std::size_t count, const Check& check) {
        if (show_progress)
          std::cerr << "grader: [" << i << "/" << count << "] " << check.name << "\x1b[K\r" << std::flush;
      };
      results.push_back(grade(rubrics.back(), context, choice.reason, progress));
      if (show_progress) std::cerr << "\x1b[K";
    }
    if (lab_text == "all") {
      // The quiz is part of the course: --lab all grades it too.
      rubrics.push_back(quiz::rubric());
      results.push_back(grade_quiz_file(rubrics.back(), config, solutions));
    }
    // A single lab that does not build keeps its text report off stdout
    // (stderr has the message); every other format answers on stdout.
    if (!(format == "text" && results.size() == 1 && any_unbuilt)) print_report(std::cout, format, results, verbose);
    if (format == "text" && hint_opt->count() > 0) {
      for (const GradeResult& r : results) {
        if (r.rubric->lab != 0 && r.build_error.empty()) std::cout << "\n" << format_hint(r, hint_level);
      }
    }
    if (!text_report.empty()) write_text_report(text_report, results, verbose);
    if (any_unbuilt) return kUsageError;
    for (const GradeResult& r : results) {
      if (!r.full_marks()) return 1;
    }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "grader: error: " << error.what() << "\n";
    return kUsageError;
  }
}
