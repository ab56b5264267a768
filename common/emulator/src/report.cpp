// The launch report as text: findings with their source lines, then the cost
// of every shared-memory line, and (verbose) the bank map of the worst access.
#include <algorithm>
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
  // Each column as wide as its header or its widest number, with two spaces
  // before it at least (ten-digit counts of a long run never run together).
  const char* headers[] = {"loads", "stores", "warp instr", "wavefronts", "ideal", "excess", "worst"};
  std::size_t widths[] = {10, 10, 12, 12, 10, 10, 8};
  std::size_t where_width = 24;
  const auto cells = [](const LineStats& l) {
    return std::array<std::uint64_t, 7>{l.loads,      l.stores,           l.warp_instructions,
                                        l.wavefronts, l.ideal_wavefronts, l.excess_wavefronts(),
                                        static_cast<std::uint64_t>(l.worst_wavefronts)};
  };
  for (const LineStats& l : report.lines) {
    where_width = std::max(where_width, l.where.text().size() + 2);
    const auto values = cells(l);
    for (std::size_t c = 0; c < values.size(); ++c) widths[c] = std::max(widths[c], std::to_string(values[c]).size() + 2);
  }
  const auto w = [](std::size_t n) { return std::setw(static_cast<int>(n)); };
  out << "  " << std::left << w(where_width) << "line" << std::right;
  for (std::size_t c = 0; c < std::size(headers); ++c) out << w(widths[c]) << headers[c];
  out << '\n';
  for (const LineStats& l : report.lines) {
    out << "  " << std::left << w(where_width) << l.where.text() << std::right;
    const auto values = cells(l);
    for (std::size_t c = 0; c < values.size(); ++c) out << w(widths[c]) << values[c];
    out << '\n';
  }
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
