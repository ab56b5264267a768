// The report of a whole program run by `banklab run`: every launch of a kernel
// adds to that kernel's totals (per source line, findings counted); when the
// program ends the report is written as text or JSON. The options come from
// BANKLAB_RUN in the environment: `kernel=NAME;blocks=N;jobs=N;time_limit=S;
// format=text|json;verbose=1;report=PATH` (every part optional; jobs=0: one
// worker per core).
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "banklab/cuda_launch.hpp"
#include "banklab/emulator_json.hpp"
#include "banklab/sass.hpp"
#include "host_api.hpp"
#include "runtime.hpp"
#include "symbols.hpp"

namespace banklab::emu::detail {

namespace {

struct Settings {
  std::string kernel;  // trace only kernels whose name contains this ("" : all)
  std::uint64_t blocks = 0;
  unsigned jobs = 0;
  double time_limit = 60.0;
  std::string format = "text";  // text, json or csv
  bool verbose = false;
  std::string report_path;  // "" : stderr
  std::string sass_path;     // nvdisasm -g of nvcc's build of the program ("" : none)
  std::string sass_missing;  // why there is none
  std::string sass_tools;    // "nvcc 13.0, nvdisasm 13.2 (PATH)": what made it
  bool as_compiled = false;  // also price every launch as nvcc's code issues it
};

Settings read_settings() {
  Settings s;
  const char* text = std::getenv("BANKLAB_RUN");
  if (text == nullptr) return s;
  std::istringstream parts(text);
  std::string part;
  while (std::getline(parts, part, ';')) {
    const auto equals = part.find('=');
    if (equals == std::string::npos) continue;
    const std::string key = part.substr(0, equals), value = part.substr(equals + 1);
    if (key == "kernel") s.kernel = value;
    if (key == "blocks") s.blocks = std::strtoull(value.c_str(), nullptr, 10);
    if (key == "jobs") s.jobs = static_cast<unsigned>(std::strtoul(value.c_str(), nullptr, 10));
    if (key == "time_limit") s.time_limit = std::strtod(value.c_str(), nullptr);
    if (key == "format") s.format = value;
    if (key == "verbose") s.verbose = value == "1";
    if (key == "report") s.report_path = value;
    if (key == "sass") s.sass_path = value;
    if (key == "sass_missing") s.sass_missing = value;
    if (key == "sass_tools") s.sass_tools = value;
    if (key == "as_compiled") s.as_compiled = value == "1";
  }
  return s;
}

const Settings& settings() {
  static const Settings s = read_settings();
  return s;
}

// One kernel's launches, summed.
struct KernelTotals {
  LaunchReport total;  // lines and findings of every launch; grid/block of the last
  std::uint64_t launches = 0;
  std::uint64_t stopped = 0;  // launches that did not finish (time limit, crash, invalid launch)
  bool traced = false;
  // Each grid and block the kernel was launched with, with its launches, in
  // the order first seen.
  struct Geometry {
    dim3 grid, block;
    std::uint64_t launches = 0;
  };
  std::vector<Geometry> geometries;
  std::map<std::pair<std::string, int>, std::size_t> line_index;
  std::map<std::string, std::size_t> finding_index;
  std::map<std::pair<std::string, int>, std::size_t> compiled_index;
  // Summed launch by launch, for the law that the merged lines add up to them.
  std::uint64_t launch_wavefronts = 0;
  std::uint64_t launch_instructions = 0;
};

// With BANKLAB_CHECK_REPORTS: the kernel's merged report keeps every law of
// one launch's, and its lines add up to the launches' totals.
void check_totals(const KernelTotals& k) {
  if (!report_laws_checked()) return;
  std::uint64_t instructions = 0;
  for (const LineStats& l : k.total.lines) instructions += l.warp_instructions;
  if (k.total.total_wavefronts() != k.launch_wavefronts || instructions != k.launch_instructions) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "BankLab report law broken: %s: the lines of %llu launches add up to %llu wavefronts and %llu "
                 "instructions, the launches to %llu and %llu\n",
                 k.total.kernel.c_str(), static_cast<unsigned long long>(k.launches),
                 static_cast<unsigned long long>(k.total.total_wavefronts()),
                 static_cast<unsigned long long>(instructions), static_cast<unsigned long long>(k.launch_wavefronts),
                 static_cast<unsigned long long>(k.launch_instructions));
    std::_Exit(70);
  }
  check_report_laws(k.total);
}

std::vector<KernelTotals>& kernels() {
  static std::vector<KernelTotals> all;
  return all;
}

std::string finding_key(const Finding& f) {
  return std::to_string(static_cast<int>(f.kind)) + "|" + f.where.file + ":" + std::to_string(f.where.line) + "|" +
         f.other.file + ":" + std::to_string(f.other.line) + "|" + f.message;
}

void add(KernelTotals& k, LaunchReport&& one) {
  LaunchReport& t = k.total;
  ++k.launches;
  k.launch_wavefronts += one.total_wavefronts();
  for (const LineStats& l : one.lines) k.launch_instructions += l.warp_instructions;
  if (!one.completed) ++k.stopped;
  const auto same = [&](const KernelTotals::Geometry& g) {
    return g.grid.x == one.grid.x && g.grid.y == one.grid.y && g.grid.z == one.grid.z && g.block.x == one.block.x &&
           g.block.y == one.block.y && g.block.z == one.block.z;
  };
  auto geometry = std::find_if(k.geometries.begin(), k.geometries.end(), same);
  if (geometry == k.geometries.end()) geometry = k.geometries.insert(k.geometries.end(), {one.grid, one.block, 0});
  ++geometry->launches;
  t.kernel = one.kernel;
  t.grid = one.grid;
  t.block = one.block;
  t.completed = (k.launches == 1 || t.completed) && one.completed;
  t.shared_bytes = std::max(t.shared_bytes, one.shared_bytes);
  t.dynamic_shared_bytes = std::max(t.dynamic_shared_bytes, one.dynamic_shared_bytes);
  t.threads_run += one.threads_run;
  t.blocks_run += one.blocks_run;
  t.blocks_traced += one.blocks_traced;
  t.warps_traced += one.warps_traced;
  t.shared_accesses += one.shared_accesses;
  t.untraced_accesses += one.untraced_accesses;
  t.seconds += one.seconds;
  if (t.shared_variables.empty()) t.shared_variables = one.shared_variables;
  for (Finding& f : one.findings) {
    const std::string key = finding_key(f);
    auto found = k.finding_index.find(key);
    if (found != k.finding_index.end()) {
      t.findings[found->second].count += f.count;
    } else {
      k.finding_index[key] = t.findings.size();
      t.findings.push_back(std::move(f));
    }
  }
  t.priced_as_compiled = t.priced_as_compiled || one.priced_as_compiled;
  for (CompiledLineStats& l : one.compiled_lines) {
    const auto key = std::make_pair(file_base_name(l.where.file), l.where.line);
    const auto found = k.compiled_index.find(key);
    if (found == k.compiled_index.end()) {
      k.compiled_index[key] = t.compiled_lines.size();
      t.compiled_lines.push_back(std::move(l));
    } else {
      t.compiled_lines[found->second].add(l);
    }
  }
  for (LineStats& l : one.lines) {
    const auto key = std::make_pair(l.where.file, l.where.line);
    auto found = k.line_index.find(key);
    if (found == k.line_index.end()) {
      k.line_index[key] = t.lines.size();
      t.lines.push_back(std::move(l));
      continue;
    }
    LineStats& sum = t.lines[found->second];
    sum.loads += l.loads;
    sum.stores += l.stores;
    sum.warp_instructions += l.warp_instructions;
    sum.wavefronts += l.wavefronts;
    sum.ideal_wavefronts += l.ideal_wavefronts;
    sum.store_wavefronts += l.store_wavefronts;
    sum.store_instructions += l.store_instructions;
    if (l.worst_wavefronts > sum.worst_wavefronts) {
      sum.worst_wavefronts = l.worst_wavefronts;
      sum.worst_access = l.worst_access;
      sum.worst_context = l.worst_context;
    }
  }
  check_totals(k);
}

// "grid (4,1,1), block (256,1,1) x 3".
std::string geometry_text(const KernelTotals::Geometry& g) {
  std::ostringstream out;
  out << "grid (" << g.grid.x << "," << g.grid.y << "," << g.grid.z << "), block (" << g.block.x << "," << g.block.y
      << "," << g.block.z << ") x " << g.launches;
  return out.str();
}

// nvcc's shared instructions of the program, read once (empty without them).
const std::vector<SassAccess>& nvcc_sass() {
  static const std::vector<SassAccess> sass = [] {
    std::vector<SassAccess> out;
    if (settings().sass_path.empty()) return out;
    std::ifstream in(settings().sass_path);
    try {
      out = parse_nvdisasm(in);
    } catch (const std::exception& e) {
      std::cerr << "banklab run: nvcc's code not compared: " << e.what() << "\n";
    }
    return out;
  }();
  return sass;
}

std::string text_report() {
  std::ostringstream out;
  out << "\n== BankLab: shared memory of this run, per kernel and source line (CPU emulator, H200 bank model) ==\n";
  if (kernels().empty()) out << "no kernel was launched\n";
  for (const KernelTotals& k : kernels()) {
    out << '\n'
        << k.launches << (k.launches == 1 ? " launch" : " launches") << " of " << k.total.kernel << ": "
        << k.total.blocks_run << (k.total.blocks_run == 1 ? " block" : " blocks");
    if (!k.traced && k.total.blocks_run > 0) {  // blocks ran untraced: only --kernel does that
      out << ", not traced (--kernel)\n";
    } else if (k.stopped > 0) {
      out << ", " << (k.stopped == k.launches ? (k.launches == 1 ? "the launch" : "every launch")
                                               : std::to_string(k.stopped) + " of the launches")
          << " stopped early (see below): the counts are for what ran before it stopped\n";
    } else if (k.total.blocks_traced < k.total.blocks_run) {
      out << ", " << k.total.blocks_traced << " of them traced (--blocks): the counts below are for those\n";
    } else {
      out << ", all traced\n";
    }
    if (k.geometries.size() > 1) {
      out << "launched with " << k.geometries.size() << " shapes (the line below names the last):";
      for (std::size_t i = 0; i < k.geometries.size(); ++i) out << (i == 0 ? " " : "; ") << geometry_text(k.geometries[i]);
      out << "\n";
    }
    out << format_report(k.total, settings().verbose);
    if (k.total.priced_as_compiled) {
      out << format_compiled_lines(k.total);
    } else if (settings().as_compiled && k.traced) {
      out << "not priced as nvcc compiled it: "
          << (nvcc_sass().empty() ? "nvcc's code was not compared (see below)"
                                  : "nvcc's code has no function " + k.total.kernel)
          << "\n";
    }
    const std::vector<std::string> differences = sass_differences(k.total, nvcc_sass());
    if (!nvcc_sass().empty() && k.traced && !k.total.lines.empty() && !sass_has_kernel(nvcc_sass(), k.total.kernel) &&
        !settings().as_compiled) {
      out << "not compared with nvcc's code: it has no shared instruction of a function " << k.total.kernel
          << " (a name nvcc's build spells otherwise, or shared accesses nvcc removed)\n";
    }
    if (!differences.empty() && !k.total.priced_as_compiled) {
      out << "lines nvcc compiles differently (nvdisasm of nvcc -arch=sm_90; the counts above are the host "
             "compiler's):\n";
      for (const std::string& d : differences) out << "  " << d << "\n";
    }
  }
  if (!settings().sass_path.empty()) {
    out << "\nnvcc's own code was compared line by line (" << nvcc_sass().size() << " shared instructions"
        << (settings().sass_tools.empty() ? "" : "; " + settings().sass_tools)
        << "); lines not listed above compile to the same widths.\n";
  } else if (!settings().sass_missing.empty()) {
    out << "\nnvcc's own code was not compared: " << settings().sass_missing
        << ". Where nvcc merges or removes shared accesses, Nsight Compute's counts differ from these.\n";
  }
  out << "\ncolumns: loads and stores count lanes; a warp instruction is one shared-memory instruction of one "
         "warp;\nwavefronts: what the bank model charges (Nsight Compute's shared wavefronts on an H200); ideal: the "
         "fewest\nthe access width allows; excess = wavefronts - ideal, the cost of bank conflicts; worst: the "
         "wavefronts of\nthe line's costliest warp instruction (--verbose shows it, with its bank map).\n";
  return out.str();
}

std::string json_report() {
  nlohmann::json out = {{"kernels", nlohmann::json::array()}};
  for (const KernelTotals& k : kernels()) {
    nlohmann::json one = to_priced_json(k.total);
    one["launches"] = k.launches;
    one["traced"] = k.traced;
    one["blocks_run"] = k.total.blocks_run;
    one["blocks_traced"] = k.total.blocks_traced;
    one["stopped_launches"] = k.stopped;
    one["geometries"] = nlohmann::json::array();
    for (const KernelTotals::Geometry& g : k.geometries) {
      one["geometries"].push_back({{"grid", {g.grid.x, g.grid.y, g.grid.z}},
                                   {"block", {g.block.x, g.block.y, g.block.z}},
                                   {"launches", g.launches}});
    }
    one["nvcc_differences"] = sass_differences(k.total, nvcc_sass());
    one["nvcc_found"] = sass_has_kernel(nvcc_sass(), k.total.kernel);
    if (k.total.priced_as_compiled) one["as_compiled"] = compiled_to_json(k.total);
    out["kernels"].push_back(one);
  }
  out["nvcc_compared"] = !settings().sass_path.empty();
  out["as_compiled"] = settings().as_compiled && !nvcc_sass().empty();
  if (!settings().sass_tools.empty()) out["nvcc_tools"] = settings().sass_tools;
  if (!settings().sass_missing.empty()) out["nvcc_not_compared_because"] = settings().sass_missing;
  return out.dump(2) + "\n";
}

// One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
// break (kernel names hold commas: "scale(float*, float)").
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// --format csv: a header, then a row per kernel and source line (the source
// view's counts, as the text table has them), for a spreadsheet or a script.
// A kernel with no shared access has one row with the line left empty.
std::string csv_report() {
  std::ostringstream out;
  out << "kernel,file,line,loads,stores,warp_instructions,wavefronts,ideal_wavefronts,excess_wavefronts,"
         "worst_wavefronts,store_instructions,store_wavefronts,launches,stopped_launches,blocks_run,blocks_traced\n";
  for (const KernelTotals& k : kernels()) {
    const std::string kernel = csv_field(k.total.kernel);
    const std::string tail = "," + std::to_string(k.launches) + "," + std::to_string(k.stopped) + "," +
                             std::to_string(k.total.blocks_run) + "," + std::to_string(k.total.blocks_traced) + "\n";
    if (k.total.lines.empty()) out << kernel << ",,,0,0,0,0,0,0,0,0,0" << tail;
    for (const LineStats& l : k.total.lines) {
      out << kernel << "," << csv_field(l.where.file) << "," << l.where.line << "," << l.loads << "," << l.stores
          << "," << l.warp_instructions << "," << l.wavefronts << "," << l.ideal_wavefronts << ","
          << l.excess_wavefronts() << "," << l.worst_wavefronts << "," << l.store_instructions << ","
          << l.store_wavefronts << tail;
    }
  }
  return out.str();
}

// Launches stopped at the time limit: `banklab run` exits non-zero for them.
std::uint64_t& stopped_launches() {
  static std::uint64_t stopped = 0;
  return stopped;
}

// REPORT.status beside the report: what `banklab run` needs for its exit
// status and its verdict on a run without launches, as key=value lines.
void write_status() {
  if (settings().report_path.empty()) return;
  std::uint64_t launches = 0;
  for (const KernelTotals& k : kernels()) launches += k.launches;
  const FailedAllocations& failed = failed_allocations();
  std::ofstream(settings().report_path + ".status") << "launches=" << launches << "\nstopped=" << stopped_launches()
                                                    << "\nfailed_allocations=" << failed.count
                                                    << "\nlargest_failed_allocation=" << failed.largest_bytes << "\n";
}

void write_report() {
  static bool written = false;  // at exit, or when host code crashes or is stopped: once
  if (written) return;
  written = true;
  const std::string text = settings().format == "json"  ? json_report()
                           : settings().format == "csv" ? csv_report()
                                                        : text_report();
  write_status();
  if (!settings().report_path.empty()) {
    std::ofstream file(settings().report_path);
    file << text;
    if (file) return;
  }
  std::fflush(stdout);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace

namespace {

// Host code that crashes (abort(), a failed assert, a bad pointer) or is
// stopped at the time limit (banklab run sends SIGTERM first): what the
// program printed is flushed and the report of the launches that ran is
// written, then the signal takes its course, so that banklab run still says
// how the program ended. Best effort: a crash inside the allocator may leave
// it unable to write. A launch puts its own handlers in place while it runs
// and puts these back after it (crash.cpp).
constexpr int kHostSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTERM};

void on_host_signal(int signal) {
  std::fflush(stdout);
  write_report();
  ::signal(signal, SIG_DFL);
  raise(signal);
}

// The report is written at exit, once.
void register_report() {
  static bool registered = false;
  if (registered) return;
  registered = true;
  // Made before the handler is registered, so that they are destroyed after it runs.
  (void)kernels();
  (void)settings();
  (void)stopped_launches();
  (void)failed_allocations();
  (void)nvcc_sass();
  std::atexit(write_report);
  for (const int signal : kHostSignals) ::signal(signal, on_host_signal);
}

// Under `banklab run`, from the program's start: a program that ends before
// its first launch (a failed cudaMalloc, an early return) still gets its
// report ("no kernel was launched") and its status.
[[maybe_unused]] const bool report_registered_at_start = [] {
  if (std::getenv("BANKLAB_RUN") != nullptr) register_report();
  return true;
}();

LaunchOptions session_options(const void* kernel) {
  register_report();
  LaunchOptions options;
  options.time_limit_seconds = settings().time_limit;
  options.trace_blocks = settings().blocks;
  options.workers = settings().jobs;
  // --as-compiled: each kernel's plan is made from nvcc's code at its first launch.
  if (settings().as_compiled && !nvcc_sass().empty()) options.nvcc_code = &nvcc_sass();
  if (!settings().kernel.empty()) {
    const FunctionName name = function_name(kernel);
    options.trace = name.demangled.find(settings().kernel) != std::string::npos;
  }
  return options;
}

void session_record(LaunchReport report) {
  if (report.has(FindingKind::kTimeLimit)) ++stopped_launches();
  // CUDA's error state after the launch.
  if (report.has(FindingKind::kInvalidLaunch)) {
    set_launch_error(cudaErrorInvalidConfiguration, false);
  } else if (report.has(FindingKind::kTimeLimit)) {
    set_launch_error(cudaErrorLaunchTimeout, true);
  } else if (report.has(FindingKind::kMisalignedShared) && !report.completed) {
    set_launch_error(cudaErrorMisalignedAddress, true);
  } else if (report.has(FindingKind::kGlobalOutOfBounds) || report.has(FindingKind::kSharedOutOfBounds)) {
    set_launch_error(cudaErrorIllegalAddress, !report.completed);
  } else if (!report.completed) {
    set_launch_error(cudaErrorLaunchFailure, true);
  }
  std::vector<KernelTotals>& all = kernels();
  for (KernelTotals& k : all) {
    if (k.total.kernel == report.kernel) {
      k.traced = k.traced || report.blocks_traced > 0;
      add(k, std::move(report));
      return;
    }
  }
  all.emplace_back();
  all.back().traced = report.blocks_traced > 0;
  add(all.back(), std::move(report));
}
}  // namespace

void program_launch(const LaunchConfig& config, const void* kernel, void (*invoke)(void*), void* closure) {
  if (rt().current != nullptr) {
    // A launch from inside a kernel: CUDA's dynamic parallelism.
    unsupported("a kernel launch from device code (dynamic parallelism), which the emulator cannot run (it launches "
                "kernels from host code only)");
  }
  LaunchOptions options = session_options(kernel);
  options.dynamic_shared_bytes = config.shared_bytes;
  session_record(launch_erased(options, config.grid, config.block, kernel, invoke, closure));
}

}  // namespace banklab::emu::detail

namespace {
cudaError_t untyped_launch(const char* call, const void* kernel) {
  std::fflush(stdout);
  std::fprintf(stderr,
               "banklab run: %s was given the kernel %s as a plain pointer (const void*), so the emulator cannot "
               "know its parameters: pass the kernel itself, e.g. %s(my_kernel, grid, block, args), or launch it "
               "with my_kernel<<<grid, block>>>(...)\n",
               call, banklab::emu::detail::function_name(kernel).demangled.c_str(), call);
  banklab::emu::detail::set_launch_error(cudaErrorInvalidDeviceFunction, false);
  return cudaErrorInvalidDeviceFunction;
}
}  // namespace

cudaError_t cudaLaunchKernel(const void* kernel, dim3, dim3, void**, std::size_t, cudaStream_t) {
  return untyped_launch("cudaLaunchKernel", kernel);
}
cudaError_t cudaLaunchCooperativeKernel(const void* kernel, dim3, dim3, void**, std::size_t, cudaStream_t) {
  return untyped_launch("cudaLaunchCooperativeKernel", kernel);
}
