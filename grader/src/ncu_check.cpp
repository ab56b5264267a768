// Running Nsight Compute into a file of the grader's and reading it (ncu_check.hpp).
#include "ncu_check.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "process.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

// One CSV record: quoted fields may hold commas ("(32, 1, 1)") and doubled quotes.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(field);
  return fields;
}

// "transpose_padded(const float *, float *, int, int)" and
// "void transpose<1>(...)" name the kernel `kernel`; "transpose_padded_v2(...)" does not.
bool names_kernel(const std::string& name, const std::string& kernel) {
  std::string base = name.substr(0, name.find_first_of("(<"));
  const auto space = base.rfind(' ');
  if (space != std::string::npos) base = base.substr(space + 1);
  return base == kernel;
}

std::string first_lines(const std::string& text, int count) {
  std::istringstream in(text);
  std::string line, out;
  for (int i = 0; i < count && std::getline(in, line); ++i) out += line + "\n";
  return out;
}

}  // namespace

NcuResult parse_ncu_csv(const std::string& log, const std::string& kernel, const std::vector<std::string>& metrics) {
  NcuResult result;
  if (log.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    result.kind = NcuResult::Kind::kNotPermitted;
    result.problem = "this user may not read the GPU's performance counters (ERR_NVGPUCTRPERM; see NVIDIA's "
                     "\"NVreg_RestrictProfilingToAdminUsers\")";
    return result;
  }
  std::istringstream in(log);
  std::string line;
  std::vector<std::string> header;
  int id_column = -1, kernel_column = -1, metric_column = -1, value_column = -1;
  std::set<std::string> launches;
  std::map<std::string, int> seen;  // metric -> rows
  while (std::getline(in, line)) {
    if (line.rfind("\"ID\",", 0) == 0) {
      if (!header.empty()) {
        result.problem = "Nsight Compute's log has two CSV headers (two results in one log)";
        return result;
      }
      header = csv_fields(line);
      for (int i = 0; i < static_cast<int>(header.size()); ++i) {
        if (header[i] == "ID") id_column = i;
        if (header[i] == "Kernel Name") kernel_column = i;
        if (header[i] == "Metric Name") metric_column = i;
        if (header[i] == "Metric Value") value_column = i;
      }
      if (id_column < 0 || kernel_column < 0 || metric_column < 0 || value_column < 0) {
        result.problem = "Nsight Compute's CSV has no ID, Kernel Name, Metric Name or Metric Value column: " + line;
        return result;
      }
      continue;
    }
    if (header.empty() || line.empty() || line[0] != '"') continue;  // ==PROF== notes and the like
    const std::vector<std::string> f = csv_fields(line);
    if (f.size() != header.size()) {
      result.problem = "Nsight Compute's CSV has a row of " + std::to_string(f.size()) + " fields for a header of " +
                       std::to_string(header.size()) + ": " + line.substr(0, 300);
      return result;
    }
    if (!names_kernel(f[kernel_column], kernel)) continue;
    launches.insert(f[id_column]);
    const std::string& metric = f[metric_column];
    if (std::find(metrics.begin(), metrics.end(), metric) == metrics.end()) continue;
    std::string digits;
    for (char c : f[value_column]) {
      if (c != ',') digits += c;  // thousands separators: "67,108,864"
    }
    std::size_t used = 0;
    long long value = -1;
    try {
      value = std::stoll(digits, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (digits.empty() || used != digits.size() || value < 0) {
      result.problem = "Nsight Compute's value of " + metric + " is not a count: \"" + f[value_column] + "\"";
      return result;
    }
    result.values[metric] = value;
    ++seen[metric];
  }
  if (header.empty()) {
    result.problem = "Nsight Compute's log holds no CSV result";
    const auto warning = log.find("==WARNING== No kernels were profiled");
    if (warning != std::string::npos) result.problem = "Nsight Compute profiled no launch of " + kernel;
    return result;
  }
  if (launches.size() != 1) {
    result.problem = "Nsight Compute's log has " + std::to_string(launches.size()) + " launches of " + kernel +
                     " where the grader asked for one";
    return result;
  }
  for (const std::string& metric : metrics) {
    if (seen[metric] != 1) {
      result.problem = "Nsight Compute's log has " + std::to_string(seen[metric]) + " values of " + metric + " for " +
                       kernel + " where the grader asked for one";
      return result;
    }
  }
  result.kind = NcuResult::Kind::kMeasured;
  return result;
}

NcuResult measure_with_ncu(const std::vector<std::string>& target, const std::string& kernel,
                           const std::vector<std::string>& metrics, double limit_seconds) {
  NcuResult result;
  // A folder only the grader's user may enter; the target (run as another
  // user, in a sandbox with its own /tmp) cannot name, create or replace the
  // log. The program's stdout stays what it was: the program's, and ignored.
  std::string folder = (fs::temp_directory_path() / "banklab-ncu-XXXXXX").string();
  if (mkdtemp(folder.data()) == nullptr) {
    result.problem = "could not create a folder for Nsight Compute's results in " + fs::temp_directory_path().string();
    return result;
  }
  const std::string log = folder + "/ncu.csv";
  std::string metric_list;
  for (const auto& m : metrics) metric_list += (metric_list.empty() ? "" : ",") + m;
  std::vector<std::string> argv = {"ncu",          "--csv",         "--page", "details", "--log-file", log,
                                   "--metrics",    metric_list,     "--kernel-name", "regex:^" + kernel + "$",
                                   "--launch-count", "1",            "--target-processes", "all"};
  argv.insert(argv.end(), target.begin(), target.end());
  const ProcessResult r = run_process(argv, limit_seconds);
  std::ifstream in(log, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::error_code ignored;
  fs::remove_all(folder, ignored);
  if (r.failed_to_start || (r.exited && r.exit_code == 127)) {
    result.kind = NcuResult::Kind::kNotInstalled;
    result.problem = "Nsight Compute (ncu) is not installed here";
    return result;
  }
  result = parse_ncu_csv(text.str(), kernel, metrics);
  if (result.kind == NcuResult::Kind::kLost) {
    // ncu's own stderr may carry the profiled program's text too: shown to
    // explain, never parsed.
    result.problem += " (ncu " + r.describe(limit_seconds) + (text.str().empty() ? ", and its log file is empty" : "") +
                      ")\n$ " + shell_quote(argv) + "\n" + first_lines(r.err, 8);
  }
  return result;
}

}  // namespace banklab::grader
