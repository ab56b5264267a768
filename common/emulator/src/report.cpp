// The launch report as text: findings with their source lines, then the cost
// of every shared-memory line, and (verbose) the bank map of the worst access.
#include <iomanip>
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
  out << "  " << std::left << std::setw(24) << "line" << std::right << std::setw(10) << "loads" << std::setw(10)
      << "stores" << std::setw(12) << "warp instr" << std::setw(12) << "wavefronts" << std::setw(10) << "ideal"
      << std::setw(10) << "excess" << std::setw(8) << "worst" << '\n';
  for (const LineStats& l : report.lines) {
    out << "  " << std::left << std::setw(24) << l.where.text() << std::right << std::setw(10) << l.loads
        << std::setw(10) << l.stores << std::setw(12) << l.warp_instructions << std::setw(12) << l.wavefronts
        << std::setw(10) << l.ideal_wavefronts << std::setw(10) << l.excess_wavefronts() << std::setw(8)
        << l.worst_wavefronts << '\n';
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
