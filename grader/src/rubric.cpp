// Running a rubric: dependencies, isolation of runner calls, scoring.
#include "rubric.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <atomic>
#include <cstdio>
#include <random>
#include <sstream>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "checks.hpp"
#include "contract.hpp"
#include "gpu_lock.hpp"
#include "nvcc_check.hpp"
#include "process.hpp"
#include "source_check.hpp"

namespace banklab::grader {

std::string_view to_string(Status status) {
  switch (status) {
    case Status::kPass:
      return "OK";
    case Status::kFail:
      return "FAIL";
    case Status::kSkip:
      return "SKIP";
  }
  return "?";
}

GradeContext::GradeContext(const Config& config, const LabFiles& lab, std::string implementation, Backend backend,
                           std::uint64_t seed, double time_limit, bool verbose)
    : config_(config),
      lab_(lab),
      implementation_(std::move(implementation)),
      backend_(backend),
      seed_(seed),
      time_limit_(time_limit),
      verbose_(verbose),
      builder_(config) {}

void GradeContext::build() {
  if (backend_ == Backend::kGpu) {
    gpu_runner_ = builder_.gpu_runner(lab_, implementation_);
    // The emulator's checks also run on the GPU backend, if the emulator
    // build works on this machine; if not, those checks are skipped.
    try {
      cpu_runner_ = builder_.cpu_runner(lab_, implementation_);
    } catch (const BuildError& error) {
      cpu_build_error_ = std::string(error.what()) + "\n" + error.output();
    }
  } else {
    cpu_runner_ = builder_.cpu_runner(lab_, implementation_);
  }
  // The builds above ran the source check; this reads its cached verdict.
  declaration_problems_ =
      check_source(config_, implementation_, time_limit_, contract_for(lab_.number)).declaration_problems;
}

std::string GradeContext::declaration_problem(const std::string& check) const {
  const Contract* contract = contract_for(lab_.number);
  if (contract == nullptr) return "";
  std::string out;
  for (const auto& item : contract->items) {
    const auto problem = declaration_problems_.find(item.name);
    if (problem == declaration_problems_.end()) continue;
    const bool needed = std::any_of(item.checks.begin(), item.checks.end(), [&](const std::string& pattern) {
      return !pattern.empty() && pattern.back() == '*' ? check.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0
                                                        : check == pattern;
    });
    if (needed) {
      out += (out.empty() ? "" : "\n") + problem->second;
    }
  }
  return out;
}

std::vector<std::string> GradeContext::nvcc_sass_args() {
  std::call_once(sass_once_, [this] {
    if (cpu_runner_.empty()) {
      sass_problem_ = "the emulator runner was not built";
      return;
    }
    // In the runner's own folder: the one its sandbox shows it.
    const std::string path = (std::filesystem::path(cpu_runner_).parent_path() / "nvcc.sass").string();
    const std::vector<std::string> own_includes =
        check_source(config_, implementation_, time_limit_, contract_for(lab_.number)).own_includes;
    sass_problem_ = disassemble_lab_file(config_, implementation_, own_includes, path, time_limit_);
    if (sass_problem_.empty()) sass_path_ = path;
  });
  if (sass_path_.empty()) return {};
  return {"--sass", sass_path_};
}

std::string GradeContext::nvcc_sass_problem() {
  nvcc_sass_args();
  return sass_problem_;
}

namespace {
// 32 hex digits from the kernel's random source.
std::string fresh_secret() {
  std::random_device device;
  std::string out;
  for (int i = 0; i < 4; ++i) {
    char part[9];
    std::snprintf(part, sizeof part, "%08x", device());
    out += part;
  }
  return out;
}
}  // namespace

const RunnerAnswer& GradeContext::hand_out(const RunnerAnswer& answer) {
  if (!answer.ahead) return answer;
  const std::lock_guard<std::mutex> hold(answers_mutex_);
  if (charged_.insert(&answer).second) ahead_seconds_ += answer.seconds;
  return answer;
}

double GradeContext::take_ahead_seconds() {
  const std::lock_guard<std::mutex> hold(answers_mutex_);
  const double out = ahead_seconds_;
  ahead_seconds_ = 0;
  return out;
}

const RunnerAnswer& GradeContext::call(const std::string& runner, const std::vector<std::string>& args,
                                       const char* what, bool ahead) {
  std::string key = what;
  for (const auto& a : args) key += " " + a;
  {
    const std::lock_guard<std::mutex> hold(answers_mutex_);
    auto found = answers_.find(key);
    if (found != answers_.end()) return found->second;
  }
  // Stored under the lock; a reference into a std::map stays valid.
  auto keep = [&](RunnerAnswer answer) -> const RunnerAnswer& {
    const std::lock_guard<std::mutex> hold(answers_mutex_);
    return answers_.emplace(key, std::move(answer)).first->second;
  };
  RunnerAnswer answer;
  if (runner.empty()) {
    answer.unavailable = true;
    answer.error = std::string("the ") + what + " runner could not be built on this machine: " + cpu_build_error_;
    return keep(std::move(answer));
  }
  std::vector<std::string> argv = {runner};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.answer_channel = true;  // the answer never shares stdout with the code under test
  options.memory_bytes = memory_bytes_;
  options.file_bytes = std::size_t{64} << 20;
  options.max_processes = 32;
  // A fresh secret per run: the runner reads it before the code under test
  // runs and puts it in front of its answer; an answer without it did not
  // come from the runner.
  options.secret = fresh_secret();
  // Confined (sandbox.hpp): the runner sees its own cache folder and the
  // system, nothing of the kit, the solutions or other runners.
  SandboxView view;
  view.read_only = {std::filesystem::path(runner).parent_path().string()};
  view.gpu = what == std::string("GPU");
  options.sandbox = view;
  // A GPU run waits for its GPU: no other grader times a kernel there meanwhile.
  std::optional<GpuLock> gpu_turn;
  if (view.gpu) gpu_turn.emplace(gpu_lock_key(), lab_.folder + " " + (args.empty() ? "" : args[0]));
  // An endless loop costs the time limit once, not once per run: after a
  // run of this file ran out of time, an emulator run gets less (the
  // answer's key, and so its command line's form, stays the same).
  const bool emulator = what == std::string("emulator");
  double limit = time_limit_;
  if (emulator) {
    const std::lock_guard<std::mutex> hold(answers_mutex_);
    if (hung_) limit = std::min(time_limit_, std::max(kAfterHangSeconds, 4 * longest_finished_));
  }
  if (limit < time_limit_) {
    for (std::size_t i = 1; i + 1 < argv.size(); ++i) {
      if (argv[i] == "--time-limit") argv[i + 1] = std::to_string(limit * 0.8);
    }
  }
  const auto started = std::chrono::steady_clock::now();
  const ProcessResult r = run_process(argv, limit, options);
  gpu_turn.reset();
  answer.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  answer.ahead = ahead;
  answer.printed = r.out + r.err;
  if (r.output_truncated) answer.printed += "\n[... more output dropped: at most 1 MiB of stdout and of stderr is kept]";
  std::string mismatch;
  // A runner stopped at the time limit may have been stopped mid-answer: what
  // it wrote is not read (the time limit is what the student is told).
  if (!r.answer.empty() && !r.timed_out) {
    // Exactly one line, "<secret> <json>".
    const std::string prefix = options.secret + " ";
    const bool one_line = r.answer.find('\n') == r.answer.size() - 1;
    if (r.answer.compare(0, prefix.size(), prefix) != 0 || !one_line) {
      mismatch = "it did not come from the grader's runner alone (something else wrote to the runner's answer "
                 "channel, descriptor 3)";
    } else {
      try {
        // Costs are the grader's: every emulator report's lines are priced
        // here from the recorded patterns, whatever the runner wrote (checks.hpp).
        answer.data = parse_runner_answer(r.answer.substr(prefix.size()));
      } catch (const nlohmann::json::exception&) {
        answer.data = nullptr;
      }
    }
  }
  // An answer must be for what was asked: the same backend and, for runs
  // over shapes, the requested shapes in order.
  if (mismatch.empty() && answer.data.is_object()) {
    const std::string backend = what == std::string("GPU") ? "gpu" : "cpu";
    if (!answer.data.contains("backend") || answer.data["backend"] != backend) {
      mismatch = "the runner's answer is not from the " + std::string(what) + " runner";
    } else if (answer.data.contains("seed") && !answer.data["seed"].is_number()) {
      mismatch = "the runner's answer carries no valid seed";
    } else {
      for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        if (args[i] == "--seed" && answer.data.contains("seed") &&
            std::to_string(answer.data["seed"].get<std::uint64_t>()) != args[i + 1]) {
          mismatch = "the runner's answer is for another seed";
        }
        if (args[i] == "--shapes" && !answer.data.contains("error")) {
          const std::string wrong = runs_mismatch(answer.data, args[i + 1]);
          if (!wrong.empty()) mismatch = wrong;
        }
      }
    }
  }
  bool shortened_out = false;  // ran out of the shortened time: the student is told why it was short
  char shortened_note[160];
  std::snprintf(shortened_note, sizeof shortened_note,
                "; this run was given %g s, not the full --time-limit of %g s, as an earlier run of this file did "
                "not finish within it",
                limit, time_limit_);
  if (emulator) {
    const bool short_limit = limit < time_limit_;
    bool ran_out = r.timed_out;
    if (answer.data.is_object() && answer.data.contains("runs") && answer.data["runs"].is_array()) {
      for (auto& run : answer.data["runs"]) {
        if (!run.is_object() || !run.contains("report") || !run["report"].is_object() ||
            !run["report"].contains("findings") || !run["report"]["findings"].is_array()) {
          continue;
        }
        for (auto& f : run["report"]["findings"]) {
          if (!f.is_object() || f.value("kind", "") != "time limit") continue;
          ran_out = true;
          if (short_limit && f.contains("message") && f["message"].is_string()) {
            f["message"] = f["message"].get<std::string>() + shortened_note;
          }
        }
      }
    }
    shortened_out = ran_out && short_limit;
    const std::lock_guard<std::mutex> hold(answers_mutex_);
    if (ran_out) {
      hung_ = true;
    } else if (r.ok()) {
      longest_finished_ = std::max(longest_finished_, answer.seconds);
    }
  }
  if (r.ok() && answer.data.is_object() && mismatch.empty()) {
    answer.ok = true;
  } else if (!mismatch.empty()) {
    answer.error = "the " + std::string(what) + " run's answer was rejected: " + mismatch;
  } else if (answer.data.is_object() && answer.data.contains("error")) {
    answer.error = answer.data["error"].get<std::string>();  // a CUDA error, reported by the runner
  } else {
    answer.error = std::string("the ") + what + " run " + r.describe(limit) +
                   (r.timed_out ? " (an infinite loop? a deadlock?); raise it with --time-limit" : "");
    if (r.timed_out && shortened_out) answer.error += shortened_note;
    if (r.ok()) answer.error += ", but the runner gave no answer (did the program exit early?)";
  }
  if (!answer.ok && !answer.printed.empty()) {
    // Shown with the failure: a crash or an exit() often prints its reason.
    const std::size_t shown = 2000;
    answer.error += "\nyour program printed:\n" + answer.printed.substr(0, shown) +
                    (answer.printed.size() > shown ? "\n[...]" : "");
  }
  return keep(std::move(answer));
}

namespace {

// The shapes of a run over "WIDTHxHEIGHT" shapes whose elements add up to a
// large run (one that takes most of a stage's time on its own), or nothing:
// only such a run is worth a process per shape.
std::vector<std::string> large_shape_list(const std::vector<std::string>& args) {
  constexpr long long kLargeElements = 1ll << 20;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--shapes") continue;
    std::vector<std::string> shapes;
    long long elements = 0;
    std::istringstream list(args[i + 1]);
    std::string item;
    while (std::getline(list, item, ',')) {
      long long w = 0, h = 0;
      char rest = 0;
      if (std::sscanf(item.c_str(), "%lldx%lld%c", &w, &h, &rest) != 2 || w < 1 || h < 1) return {};
      elements += w * h;
      shapes.push_back(item);
    }
    return shapes.size() >= 2 && elements >= kLargeElements ? shapes : std::vector<std::string>{};
  }
  return {};
}

std::vector<std::string> with_shapes(std::vector<std::string> args, const std::string& shapes) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--shapes") args[i + 1] = shapes;
  }
  return args;
}

// A run after which the runner made no more of its list (it says so: a
// time limit, or for some tasks any run that did not finish; a crash of a
// transpose does not end its list).
bool ends_the_list(const nlohmann::json& run) {
  return run.contains("ends_list") && run["ends_list"].is_boolean() && run["ends_list"].get<bool>();
}

}  // namespace

const RunnerAnswer& GradeContext::cpu(const std::vector<std::string>& args) {
  std::vector<std::string> full = args;
  full.insert(full.end(), {"--time-limit", std::to_string(time_limit_ * 0.8), "--block-time-limit",
                           std::to_string(time_limit_ / kBlockShare)});
  // With runs side by side, a large run over several shapes is made as one
  // run per shape (same arguments but --shapes), and the answers are joined
  // as the runner would have made them: each shape's run in order, up to the
  // first after which the runner would have made no more. Every run's
  // command line has the one form.
  const std::vector<std::string> shapes = split_large_runs_ ? large_shape_list(full) : std::vector<std::string>{};
  if (discovering_) {
    auto note = [&](const std::vector<std::string>& run) {
      if (std::find(noted_.begin(), noted_.end(), run) == noted_.end()) noted_.push_back(run);
    };
    if (shapes.empty()) note(full);
    for (const std::string& shape : shapes) note(with_shapes(full, shape));
    not_run_.error = "not run yet";
    return not_run_;
  }
  if (shapes.empty()) return hand_out(call(cpu_runner_, full, "emulator"));
  std::string key = "emulator, joined";
  for (const auto& a : full) key += " " + a;
  {
    const std::lock_guard<std::mutex> hold(answers_mutex_);
    auto found = answers_.find(key);
    if (found != answers_.end()) return found->second;
  }
  RunnerAnswer joined;
  for (const std::string& shape : shapes) {
    const RunnerAnswer& part = hand_out(call(cpu_runner_, with_shapes(full, shape), "emulator"));
    joined.printed += part.printed;
    if (!part.ok || !part.data.contains("runs") || !part.data["runs"].is_array()) {
      // As the single run would have ended: this part's reason (no answer,
      // or the runner's own error).
      RunnerAnswer failed = part;
      failed.printed = joined.printed;
      joined = std::move(failed);
      break;
    }
    if (!joined.data.is_object()) {
      joined = part;
      joined.data["runs"] = nlohmann::json::array();
    }
    bool stopped = false;
    for (const auto& run : part.data["runs"]) {
      joined.data["runs"].push_back(run);
      if (ends_the_list(run)) stopped = true;
    }
    if (stopped) break;
  }
  joined.ahead = false;  // its parts are charged, each once
  const std::lock_guard<std::mutex> hold(answers_mutex_);
  return answers_.emplace(key, std::move(joined)).first->second;
}

const RunnerAnswer& GradeContext::gpu(const std::vector<std::string>& args) {
  if (discovering_) {
    not_run_.error = "not run yet";
    return not_run_;
  }
  return call(gpu_runner_, args, "GPU");
}

namespace {

// Tasks runnable now, this one left out (the fourth field of /proc/loadavg,
// "running/total"); a large number where it cannot be read.
double running_tasks_besides_this() {
  std::ifstream in("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  long running = 0;
  char slash = 0;
  if (!(in >> one >> five >> fifteen >> running >> slash) || slash != '/' || running < 1) return 1e9;
  return static_cast<double>(running - 1);
}

}  // namespace

unsigned GradeContext::runner_jobs() const {
  if (runner_jobs_ != 0) return runner_jobs_;
  // The cores no one else uses, as `make -l` judges it: on a loaded
  // machine (a batch's other workers, a test suite) one run at a time, so
  // that no run is slowed towards its time limit. The load average lags by
  // a minute (a build or a grading that just ended still counts), so the
  // tasks running now bound it: the lower of the two is the load.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  double load = 0;
  if (getloadavg(&load, 1) != 1) load = static_cast<double>(cores);
  load = std::min(load, running_tasks_besides_this());
  const double idle = static_cast<double>(cores) - load;
  unsigned jobs = static_cast<unsigned>(std::clamp(idle + 0.5, 1.0, static_cast<double>(std::min(cores, 4u))));
  // Each run may use the memory limit: runs side by side may use at most
  // half the machine's memory together.
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (memory_bytes_ != 0 && pages > 0 && page > 0) {
    const double memory = static_cast<double>(pages) * static_cast<double>(page);
    jobs = std::min(jobs, std::max(1u, static_cast<unsigned>(memory / 2 / static_cast<double>(memory_bytes_))));
  }
  return jobs;
}

void GradeContext::run_noted(unsigned jobs) {
  std::vector<std::vector<std::string>> runs;
  runs.swap(noted_);
  if (cpu_runner_.empty() || runs.size() < 2 || jobs < 2) return;  // the checks ask for them one by one
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < std::min<std::size_t>(jobs, runs.size()); ++w) {
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < runs.size(); i = next++) call(cpu_runner_, runs[i], "emulator", true);
    });
  }
  for (std::thread& t : workers) t.join();
}

namespace {

std::map<int, RubricFactory>& registry() {
  static std::map<int, RubricFactory> factories;
  return factories;
}

std::map<int, VariantRubricFactory>& variant_registry() {
  static std::map<int, VariantRubricFactory> factories;
  return factories;
}

}  // namespace

std::string visibility_of(const Rubric& rubric, const Check& check) {
  const auto set = rubric.visibility.find(check.name);
  if (set != rubric.visibility.end()) return set->second;
  // A prediction's message shows the bank map and the banksim command that
  // give its answer away: held back until the due date.
  return check.part == "predictions" ? "after_due_date" : "visible";
}

bool register_rubric(int lab, RubricFactory factory) {
  registry()[lab] = factory;
  return true;
}

Rubric rubric_for(int lab) {
  const auto found = registry().find(lab);
  if (found == registry().end()) throw std::invalid_argument("stage " + std::to_string(lab) + " has no rubric yet");
  return found->second();
}

bool register_variant_rubric(int lab, VariantSpaceFactory space, VariantRubricFactory factory) {
  register_variant_space(lab, space);
  variant_registry()[lab] = factory;
  return true;
}

Rubric rubric_for(int lab, const Variant& variant) {
  if (!variant.active()) return rubric_for(lab);
  const auto found = variant_registry().find(lab);
  const VariantSpace* space = variant_space_for(lab);
  if (found == variant_registry().end() || space == nullptr) {
    std::string with;
    for (int n : stages_with_variants()) with += (with.empty() ? "" : ", ") + std::to_string(n);
    throw std::invalid_argument("stage " + std::to_string(lab) + " has no variants: every student gets the same stage " +
                                "(leave out --variant-from" + (with.empty() ? "" : "; stages with variants: " + with) +
                                ")");
  }
  Rubric rubric = found->second(variant);
  rubric.variant_text = variant_text(*space, variant);
  rubric.variant = variant_json(*space, variant);
  return rubric;
}

GradeResult grade(const Rubric& rubric, GradeContext& context, const std::string& backend_reason,
                  const Progress& progress) {
  GradeResult result;
  result.rubric = &rubric;
  result.implementation = context.implementation();
  result.backend = context.backend() == Backend::kGpu ? "gpu" : "cpu";
  result.backend_reason = backend_reason;
  result.seed = context.seed();
  std::map<std::string, Status> status_of;
  // Every check once with nothing run, to learn the emulator runs the stage
  // asks for; those run side by side on idle cores, then the checks run for
  // real and find their answers ready. A run asked for only after another's
  // answer (none today) still runs when asked.
  const unsigned jobs = context.runner_jobs();
  if (jobs > 1) {
    context.set_split_large_runs(true);
    context.set_discovering(true);
    for (const Check& check : rubric.checks) {
      if (check.gpu_only && context.backend() != Backend::kGpu) continue;
      if (!context.declaration_problem(check.name).empty()) continue;
      try {
        (void)check.run(context);
      } catch (const std::exception&) {
      }
    }
    context.set_discovering(false);
    context.run_noted(jobs);
  }
  for (const Check& check : rubric.checks) {
    if (progress) progress(result.results.size() + 1, rubric.checks.size(), check);
    CheckResult r;
    r.check = &check;
    const auto start = std::chrono::steady_clock::now();
    if (check.gpu_only && context.backend() != Backend::kGpu) {
      r.outcome = Outcome::skip("needs a GPU (run with --backend gpu on a machine with an NVIDIA GPU)");
    } else {
      std::string missing;
      for (const std::string& need : check.needs) {
        if (status_of[need] != Status::kPass) missing += (missing.empty() ? "" : ", ") + ("'" + need + "'");
      }
      const std::string declaration = context.declaration_problem(check.name);
      if (!declaration.empty()) {
        // Checked from the source before the build: the runner is not asked.
        r.outcome = Outcome::fail(declaration);
      } else if (!missing.empty()) {
        r.outcome = Outcome::fail("not checked: needs " + missing + " to pass first");
      } else {
        try {
          r.outcome = check.run(context);
        } catch (const std::exception& e) {
          r.outcome = Outcome::fail(std::string("the check could not complete: ") + e.what());
        }
      }
    }
    // The check's own time, and that of the runs made ahead for it (side by
    // side, before the checks) that it was the first to read.
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() +
                context.take_ahead_seconds();
    r.score = r.outcome.status == Status::kPass ? check.points : 0;
    if (r.outcome.status == Status::kSkip) {
      result.skipped_points += check.points;
    } else {
      result.max_score += check.points;
      result.score += r.score;
    }
    status_of[check.name] = r.outcome.status;
    result.results.push_back(std::move(r));
  }
  return result;
}

}  // namespace banklab::grader
