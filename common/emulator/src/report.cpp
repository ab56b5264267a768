// The launch report as text: findings with their source lines, then the cost
// of every shared-memory line, and (verbose) the bank map of the worst access.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <array>
#include <iomanip>
#include <iterator>
#include <sstream>

#include "banklab/emulator.hpp"

namespace banklab::emu {

std::string SourceLocation::text() const {
  if (file.empty()) return "unknown location";
  const auto slash = file.rfind('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
}

std::string_view to_string(FindingKind kind) {
  switch (kind) {
    case FindingKind::kBarrierDivergence:
      return "barrier divergence";
    case FindingKind::kDeadlock:
      return "deadlock";
    case FindingKind::kSharedRace:
      return "shared-memory race";
    case FindingKind::kUninitializedSharedRead:
      return "uninitialised shared read";
    case FindingKind::kGlobalOutOfBounds:
      return "out-of-bounds global access";
    case FindingKind::kSharedOutOfBounds:
      return "out-of-bounds shared access";
    case FindingKind::kMisalignedShared:
      return "misaligned shared access";
    case FindingKind::kCrash:
      return "crash";
    case FindingKind::kTimeLimit:
      return "time limit";
    case FindingKind::kInvalidLaunch:
      return "invalid launch";
  }
  return "finding";
}

bool LaunchReport::has(FindingKind kind) const {
  for (const Finding& f : findings) {
    if (f.kind == kind) return true;
  }
  return false;
}

std::uint64_t LaunchReport::total_wavefronts() const {
  std::uint64_t total = 0;
  for (const LineStats& l : lines) total += l.wavefronts;
  return total;
}

std::uint64_t LaunchReport::total_excess_wavefronts() const {
  std::uint64_t total = 0;
  for (const LineStats& l : lines) total += l.excess_wavefronts();
  return total;
}

std::vector<std::string> report_law_violations(const LaunchReport& report) {
  std::vector<std::string> broken;
  auto law = [&](bool holds, const std::string& where, const std::string& what, std::uint64_t a, std::uint64_t b) {
    if (!holds) broken.push_back(report.kernel + ", " + where + ": " + what + " (" + std::to_string(a) + ", " +
                                 std::to_string(b) + ")");
  };
  for (const LineStats& l : report.lines) {
    const std::string at = l.where.text();
    law(l.ideal_wavefronts <= l.wavefronts, at, "ideal wavefronts above the wavefronts", l.ideal_wavefronts,
        l.wavefronts);
    law(l.warp_instructions <= l.wavefronts, at, "fewer wavefronts than warp instructions", l.wavefronts,
        l.warp_instructions);
    law(l.warp_instructions == 0 || l.ideal_wavefronts > 0, at, "warp instructions with no ideal wavefront",
        l.warp_instructions, l.ideal_wavefronts);
    law(l.loads + l.stores >= l.warp_instructions, at, "fewer lanes than warp instructions", l.loads + l.stores,
        l.warp_instructions);
    law(l.loads + l.stores <= 32 * l.warp_instructions, at, "more than 32 lanes a warp instruction",
        l.loads + l.stores, l.warp_instructions);
    law(l.store_wavefronts <= l.wavefronts, at, "store wavefronts above all wavefronts", l.store_wavefronts,
        l.wavefronts);
    law(l.store_instructions <= l.warp_instructions, at, "store instructions above all instructions",
        l.store_instructions, l.warp_instructions);
    const auto worst = static_cast<std::uint64_t>(std::max(l.worst_wavefronts, 0));
    law(worst <= l.wavefronts, at, "the worst instruction above the line's wavefronts", worst, l.wavefronts);
    law(worst * l.warp_instructions >= l.wavefronts, at, "wavefronts above the worst instruction's times the count",
        l.wavefronts, worst * l.warp_instructions);
  }
  for (const CompiledLineStats& l : report.compiled_lines) {
    law(l.ideal_wavefronts <= l.wavefronts(), l.where.text() + " as compiled", "ideal wavefronts above the wavefronts",
        l.ideal_wavefronts, l.wavefronts());
    // A predicated instruction is issued by warps with no lane on: 0 wavefronts there.
    const std::uint64_t with_lanes = l.instructions() - std::min(l.predicated_warps, l.instructions());
    law(with_lanes <= l.wavefronts(), l.where.text() + " as compiled",
        "fewer wavefronts than instructions with a lane on", l.wavefronts(), with_lanes);
  }
  law(report.blocks_traced <= report.blocks_run, "the launch", "more blocks traced than run", report.blocks_traced,
      report.blocks_run);
  return broken;
}

namespace detail {

bool report_laws_checked() {
  static const bool enabled = std::getenv("BANKLAB_CHECK_REPORTS") != nullptr;
  return enabled;
}

void check_report_laws(const LaunchReport& report) {
  if (!report_laws_checked()) return;
  const std::vector<std::string> broken = report_law_violations(report);
  if (broken.empty()) return;
  std::fflush(stdout);
  for (const std::string& b : broken) std::fprintf(stderr, "BankLab report law broken: %s\n", b.c_str());
  std::_Exit(70);
}

}  // namespace detail

namespace {

struct TableRow {
  std::string where;
  std::vector<std::uint64_t> values;
  std::string note;  // after the numbers ("" : none)
};

// The per-line table: each column as wide as its header or its widest number
// (at least `widths`), with two spaces before it at least (ten-digit counts
// of a long run never run together).
std::string format_table(const std::vector<std::string>& headers, std::vector<std::size_t> widths,
                         const std::vector<TableRow>& rows, const std::string& note_header = "") {
  std::size_t where_width = 24;
  for (const TableRow& r : rows) {
    where_width = std::max(where_width, r.where.size() + 2);
    for (std::size_t c = 0; c < r.values.size(); ++c) widths[c] = std::max(widths[c], std::to_string(r.values[c]).size() + 2);
  }
  const auto w = [](std::size_t n) { return std::setw(static_cast<int>(n)); };
  std::ostringstream out;
  out << "  " << std::left << w(where_width) << "line" << std::right;
  for (std::size_t c = 0; c < headers.size(); ++c) out << w(widths[c]) << headers[c];
  if (!note_header.empty()) out << "  " << note_header;
  out << '\n';
  for (const TableRow& r : rows) {
    out << "  " << std::left << w(where_width) << r.where << std::right;
    for (std::size_t c = 0; c < r.values.size(); ++c) out << w(widths[c]) << r.values[c];
    if (!r.note.empty()) out << "  " << r.note;
    out << '\n';
  }
  return out.str();
}

// "LDS.64" for a load of 8 bytes per lane.
std::string sass_name(bool store, int width) {
  std::string name = store ? "STS" : "LDS";
  if (width == 1) name += ".U8";
  if (width == 2) name += ".U16";
  if (width == 8) name += ".64";
  if (width == 16) name += ".128";
  return name;
}

}  // namespace

std::string format_compiled_lines(const LaunchReport& report) {
  if (!report.priced_as_compiled) return "";
  std::ostringstream out;
  out << "as nvcc compiled it (--as-compiled; warp instructions and wavefronts of nvcc's shared instructions, as "
         "Nsight Compute's source view counts them):\n";
  if (report.compiled_lines.empty()) {
    out << "  no shared instructions in nvcc's code or the emulator's\n";
    return out.str();
  }
  std::vector<TableRow> rows;
  CompiledLineStats total;
  for (const CompiledLineStats& l : report.compiled_lines) {
    std::vector<std::string> notes;
    const auto count = [](std::uint64_t n, const char* what) { return std::to_string(n) + " " + what; };
    if (l.merged > 0) {
      const bool stores = l.store_instructions > 0 && l.load_instructions == 0;
      notes.push_back(count(l.merged, "joined into wider accesses") +
                      (l.widest > 4 ? " (" + sass_name(stores, l.widest) + ")" : std::string()));
    }
    if (l.removed > 0) notes.push_back(count(l.removed, "not issued: nvcc makes no such access here"));
    if (l.hoisted > 0) notes.push_back(count(l.hoisted, "repeats not issued: kept in a register through the loop"));
    if (l.split > 0) notes.push_back(count(l.split, "split into narrower accesses"));
    if (l.reread > 0) notes.push_back(count(l.reread, "loads added: nvcc rereads what the line stores to"));
    if (l.predicated_warps > 0) notes.push_back(count(l.predicated_warps, "predicated off in every lane, still issued"));
    if (l.atomic_instructions > 0) notes.push_back("shared atomics (ATOMS)");
    std::string note;
    for (const std::string& n : notes) note += (note.empty() ? "" : "; ") + n;
    rows.push_back({l.where.text(),
                    {l.load_instructions, l.load_wavefronts, l.store_instructions, l.store_wavefronts,
                     l.atomic_instructions, l.atomic_wavefronts, l.ideal_wavefronts, l.excess_wavefronts()},
                    note});
    total.add(l);
  }
  rows.push_back({"kernel total",
                  {total.load_instructions, total.load_wavefronts, total.store_instructions, total.store_wavefronts,
                   total.atomic_instructions, total.atomic_wavefronts, total.ideal_wavefronts, total.excess_wavefronts()},
                  ""});
  out << format_table({"loads", "load wf", "stores", "store wf", "atomics", "atomic wf", "ideal", "excess"},
                      {8, 9, 8, 10, 9, 11, 8, 8}, rows, "what nvcc does differently (warp instructions of the source view)");
  return out.str();
}

std::string format_report(const LaunchReport& report, bool verbose) {
  std::ostringstream out;
  out << "kernel " << (report.kernel.empty() ? "(unknown)" : report.kernel) << ", grid (" << report.grid.x << ","
      << report.grid.y << "," << report.grid.z << "), block (" << report.block.x << "," << report.block.y << ","
      << report.block.z << "), " << report.shared_bytes << " bytes of shared memory"
      << (report.dynamic_shared_bytes > 0 ? " + " + std::to_string(report.dynamic_shared_bytes) + " dynamic" : "")
      << (report.completed ? "" : ", STOPPED EARLY") << '\n';
  for (const Finding& f : report.findings) {
    out << "  " << to_string(f.kind) << " at " << f.where.text();
    if (f.other_pc != 0) out << " (and " << f.other.text() << ")";
    out << ": " << f.message;
    if (f.count > 1) out << " [" << f.count << " times]";
    out << '\n';
    for (const std::string& d : f.details) out << "      " << d << '\n';
  }
  if (report.untraced_accesses > 0) {
    out << "  note: " << report.untraced_accesses
        << " shared accesses were not traced (a block ran more than a million warp instructions)\n";
  }
  if (report.lines.empty()) {
    out << "  no shared-memory accesses recorded\n";
    return out.str();
  }
  std::vector<TableRow> rows;
  for (const LineStats& l : report.lines) {
    rows.push_back({l.where.text(),
                    {l.loads, l.stores, l.warp_instructions, l.wavefronts, l.ideal_wavefronts, l.excess_wavefronts(),
                     static_cast<std::uint64_t>(l.worst_wavefronts)},
                    ""});
  }
  out << format_table({"loads", "stores", "warp instr", "wavefronts", "ideal", "excess", "worst"},
                      {10, 10, 12, 12, 10, 10, 8}, rows);
  if (verbose) {
    for (const LineStats& l : report.lines) {
      out << "\n  " << l.where.text() << ": worst warp instruction (" << l.worst_context << "): " << l.worst_wavefronts
          << " wavefront" << (l.worst_wavefronts == 1 ? "" : "s") << '\n';
      std::istringstream lines(format_explanation(price(l.worst_access)) + format_bank_map(price(l.worst_access)));
      std::string line;
      while (std::getline(lines, line)) out << "    " << line << '\n';
    }
  }
  return out.str();
}

}  // namespace banklab::emu
