// nvcc's shared-memory instructions from nvdisasm, compared with the
// emulator's per line (see banklab/sass.hpp).
#include "banklab/sass.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace banklab::emu {

std::string file_base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

namespace {

std::string demangle_name(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

std::string base_name(const std::string& path) { return file_base_name(path); }

// Bytes per lane of a shared instruction from its modifiers: LDS 4, .U8/.S8 1,
// .U16/.S16 2, .64 8, .128 16.
int width_of(const std::string& opcode) {
  int width = 4;
  std::istringstream parts(opcode);
  std::string part;
  std::getline(parts, part, '.');  // the instruction itself
  while (std::getline(parts, part, '.')) {
    if (part == "U8" || part == "S8") width = 1;
    if (part == "U16" || part == "S16") width = 2;
    if (part == "64") width = 8;
    if (part == "128") width = 16;
  }
  return width;
}

struct Shapes {
  std::map<int, int> widths;  // width -> instructions
  bool in_loop = false;       // one of them is in a loop of nvcc's code
  [[nodiscard]] int total() const {
    int n = 0;
    for (const auto& [w, c] : widths) n += c;
    return n;
  }
  [[nodiscard]] double instructions_per_byte() const {
    double bytes = 0;
    for (const auto& [w, c] : widths) bytes += static_cast<double>(w) * c;
    return bytes > 0 ? total() / bytes : 0;
  }
};

std::string describe(const Shapes& s, const std::string& unit) {
  std::ostringstream out;
  bool first = true;
  for (const auto& [width, count] : s.widths) {
    out << (first ? "" : " + ") << count << " x " << width << "-byte " << unit;
    first = false;
  }
  return out.str();
}

}  // namespace

namespace {

// A header of the CUDA Toolkit (atomicAdd's body, say): not where the
// student's access is.
bool toolkit_header(const std::string& file) {
  return (file.find("/targets/") != std::string::npos && file.find("/include/") != std::string::npos) ||
         file.rfind("/usr/local/cuda", 0) == 0 || file.rfind("/usr/include/", 0) == 0;
}

}  // namespace

namespace {

// nvcc's loops in one function: [target, branch] address ranges of branches
// back to a label at or before them.
struct FunctionLoops {
  std::map<std::string, std::uint32_t> labels;          // label -> address of the instruction after it
  std::vector<std::pair<std::string, std::uint32_t>> branches;  // target label, branch address
  std::vector<std::string> pending;                      // labels waiting for their instruction

  // Marks the accesses [first, end) of the function that lie in a loop.
  void mark(std::vector<SassAccess>& out, std::size_t first) const {
    for (const auto& [label, from] : branches) {
      const auto target = labels.find(label);
      if (target == labels.end() || target->second > from) continue;
      for (std::size_t i = first; i < out.size(); ++i) {
        if (out[i].address >= target->second && out[i].address <= from) out[i].in_loop = true;
      }
    }
  }
};

}  // namespace

std::vector<SassAccess> parse_nvdisasm(std::istream& in) {
  static const std::regex section(R"re(^\.text\.([^:\s]+):\s*$)re");
  static const std::regex location(R"re("([^"]*)", line (\d+))re");
  static const std::regex instruction(R"re(^\s*/\*([0-9a-f]+)\*/\s+(@!?U?P[T0-9]\s+)?([A-Z][A-Z0-9_.]*)\b)re");
  static const std::regex label(R"re(^\s*([.A-Za-z_$][\w.$]*):\s*$)re");
  static const std::regex branch_target(R"re(`\(([^)]+)\))re");
  std::vector<SassAccess> out;
  std::string function, file, text;
  int line = 0, number = 0;
  bool any = false;
  FunctionLoops loops;
  std::size_t function_first = 0;  // its first access in `out`
  // The location lines before the next instruction, with -gi one per level of
  // inlining, innermost first: "A", line 1 inlined at "B", line 2; then "B",
  // line 2 inlined at "C", line 3; ...; the last the outermost place alone.
  // Read together they are the whole chain A, B, C, ...
  std::vector<std::pair<std::string, int>> chain;
  bool have_chain = false;
  int block = 0;  // of the function's next instruction
  bool block_ends = false;  // the instruction before ended one (a branch, an exit)
  while (std::getline(in, text)) {
    ++number;
    std::smatch m;
    if (std::regex_search(text, m, section)) {
      loops.mark(out, function_first);
      loops = FunctionLoops{};
      function_first = out.size();
      function = m[1];
      block = 0;
      block_ends = false;
      file.clear();
      line = 0;
      any = true;
      have_chain = false;
    } else if (text.find("//## File ") != std::string::npos) {
      if (!have_chain) chain.clear();
      for (std::sregex_iterator it(text.begin(), text.end(), location), end; it != end; ++it) {
        std::pair<std::string, int> place((*it)[1], std::atoi((*it)[2].str().c_str()));
        if (chain.empty() || chain.back() != place) chain.push_back(std::move(place));
      }
      have_chain = !chain.empty();
    } else if (std::regex_search(text, m, label)) {
      loops.pending.push_back(m[1]);
      block_ends = true;
    } else if (std::regex_search(text, m, instruction)) {
      if (function.empty())
        throw std::runtime_error("nvdisasm output, line " + std::to_string(number) +
                                 ": an instruction outside any .text section");
      const auto address = static_cast<std::uint32_t>(std::stoul(m[1].str(), nullptr, 16));
      if (block_ends) ++block;
      block_ends = false;
      for (const std::string& l : loops.pending) loops.labels[l] = address;
      loops.pending.clear();
      if (have_chain) {
        // The innermost place outside the CUDA Toolkit's headers, as the
        // emulator names the line of an access.
        auto place = std::find_if(chain.begin(), chain.end(), [](const auto& p) { return !toolkit_header(p.first); });
        if (place == chain.end()) place = chain.begin();
        file = place->first;
        line = place->second;
        have_chain = false;
      }
      // A guard on a real predicate (not @PT, always true).
      const std::string guard = m[2];
      const bool predicated = !guard.empty() && guard.find("PT") == std::string::npos;
      const std::string opcode = m[3];
      const std::string name = opcode.substr(0, opcode.find('.'));
      if (name == "BRA" || name == "BRX" || name == "JMP" || name == "JMX" || name == "EXIT" || name == "RET")
        block_ends = true;
      if (name == "BRA") {
        std::smatch target;
        if (std::regex_search(text, target, branch_target)) loops.branches.emplace_back(target[1], address);
        continue;
      }
      if (name != "LDS" && name != "STS" && name != "ATOMS" && name != "LDSM" && name != "LDGSTS" && name != "UBLKCP")
        continue;
      // @!PT: never runs (nvcc puts three `@!PT LDS RZ, [RZ]` before an LDGSTS); the
      // per-instruction counters leave it out.
      if (guard.rfind("@!PT", 0) == 0) continue;
      SassAccess a;
      a.function = function;
      a.file = file;
      a.line = line;
      a.opcode = opcode;
      a.store = name == "STS" || name == "ATOMS" || name == "LDGSTS" || name == "UBLKCP";
      a.async = name == "LDGSTS" || name == "UBLKCP";
      a.width = name == "LDSM" || name == "UBLKCP" ? 16 : width_of(opcode);
      a.address = address;
      a.predicated = predicated;
      a.block = block;
      out.push_back(a);
    }
  }
  loops.mark(out, function_first);
  if (!any && number > 0)
    throw std::runtime_error("not nvdisasm output: no .text section in " + std::to_string(number) + " lines");
  return out;
}

int CompiledShape::total() const {
  int n = 0;
  for (const auto& [w, c] : widths) n += c;
  return n;
}

int CompiledShape::widest() const { return widths.empty() ? 0 : widths.rbegin()->first; }

const CompiledShape* CompiledPlan::find(const std::string& file, int line, bool store) const {
  const auto found = lines.find({file_base_name(file), line, store});
  return found == lines.end() ? nullptr : &found->second;
}

int CompiledPlan::nearest_wider(const std::string& file, int line, bool store, int width) const {
  const std::string name = file_base_name(file);
  int best = 0;
  for (const auto& [key, shape] : lines) {
    const auto& [f, l, s] = key;
    if (f != name || s != store || shape.widest() <= width) continue;
    if (best == 0 || std::abs(l - line) < std::abs(best - line)) best = l;
  }
  return best;
}

CompiledPlan compiled_plan(const std::string& kernel, const std::vector<SassAccess>& sass) {
  CompiledPlan plan;
  plan.kernel = kernel;
  std::map<std::tuple<std::string, int, bool>, bool> every_predicated;
  const SassAccess* unpredicated = nullptr;  // the last one of the kernel's code so far
  for (const SassAccess& a : sass) {
    if (demangle_name(a.function) != kernel) continue;
    const auto key = std::make_tuple(file_base_name(a.file), a.line, a.store);
    const bool fresh_line = plan.lines.count(key) == 0;
    CompiledShape& shape = plan.lines[key];
    ++shape.widths[a.width];
    shape.in_loop = shape.in_loop || a.in_loop;
    const auto [it, fresh] = every_predicated.emplace(key, a.predicated);
    if (!fresh) it->second = it->second && a.predicated;
    if (a.predicated && fresh_line) {
      // How many warps reach it, from its first instruction's basic block.
      if (unpredicated != nullptr && unpredicated->block == a.block && unpredicated->function == a.function) {
        shape.has_anchor = true;
        shape.anchor = std::make_tuple(file_base_name(unpredicated->file), unpredicated->line, unpredicated->store);
      } else {
        shape.entry = a.block == 0;
      }
    }
    if (!a.predicated) unpredicated = &a;
  }
  for (auto& [key, shape] : plan.lines) shape.predicated = every_predicated[key];
  return plan;
}

bool sass_has_kernel(const std::vector<SassAccess>& sass, const std::string& kernel) {
  return std::any_of(sass.begin(), sass.end(), [&](const SassAccess& a) { return demangle_name(a.function) == kernel; });
}

std::vector<std::string> sass_differences(const LaunchReport& report, const std::vector<SassAccess>& sass) {
  // nvcc's instructions of this kernel, by (file name, line).
  std::map<std::pair<std::string, int>, std::pair<Shapes, Shapes>> nvcc;  // loads, stores
  std::map<std::pair<std::string, int>, Shapes> async;                     // LDGSTS, also among the stores
  std::map<std::pair<std::string, int>, int> bulk;                         // UBLKCP (the TMA's bulk copies)
  bool kernel_found = false;
  for (const SassAccess& a : sass) {
    if (demangle_name(a.function) != report.kernel) continue;
    kernel_found = true;
    if (a.async && a.opcode.rfind("UBLKCP", 0) == 0) {
      ++bulk[{base_name(a.file), a.line}];
      continue;
    }
    if (a.async) ++async[{base_name(a.file), a.line}].widths[a.width];
    auto& [loads, stores] = nvcc[{base_name(a.file), a.line}];
    Shapes& shapes = a.store ? stores : loads;
    ++shapes.widths[a.width];
    shapes.in_loop = shapes.in_loop || a.in_loop;
  }
  std::vector<std::string> out;
  if (!kernel_found) return out;
  for (const LineStats& l : report.lines) {
    if (l.warp_instructions == 0 || l.where.file.empty()) continue;
    Shapes emu_loads, emu_stores;
    for (std::size_t i = 0; i < l.pc_widths.size(); ++i) ++(l.pc_stores[i] ? emu_stores : emu_loads).widths[l.pc_widths[i]];
    const auto found = nvcc.find({base_name(l.where.file), l.where.line});
    const Shapes none;
    const Shapes& sass_loads = found != nvcc.end() ? found->second.first : none;
    const Shapes& sass_stores = found != nvcc.end() ? found->second.second : none;
    const std::uint64_t dynamic[2] = {l.warp_instructions - l.store_instructions, l.store_instructions};
    const Shapes* emu[2] = {&emu_loads, &emu_stores};
    const Shapes* gpu[2] = {&sass_loads, &sass_stores};
    const char* what[2] = {"load", "store"};
    const auto copies = async.find({base_name(l.where.file), l.where.line});
    const auto bulk_copies = bulk.find({base_name(l.where.file), l.where.line});
    bool stores_noted = false;  // the line's stores are asynchronous copies, said below
    if (bulk_copies != bulk.end() && copies == async.end() && dynamic[1] > 0) {
      std::ostringstream s;
      s << base_name(l.where.file) << ":" << l.where.line << ": stores: nvcc makes a bulk copy here ("
        << bulk_copies->second << " x UBLKCP, the Tensor Memory Accelerator): it writes shared memory without the "
        << "load/store unit, and Nsight Compute counts no shared wavefronts for it; the emulator prices the copy as "
        << "the group's 16-byte stores";
      out.push_back(s.str());
      stores_noted = true;
    }
    if (copies != async.end() && dynamic[1] > 0) {
      stores_noted = true;
      // What the emulator prices here is what the copy writes; Nsight Compute shows it elsewhere.
      const bool wide = copies->second.widths.count(16) > 0;
      std::ostringstream s;
      s << base_name(l.where.file) << ":" << l.where.line << ": stores: nvcc makes an asynchronous copy here ("
        << describe(copies->second, "LDGSTS") << "): Nsight Compute's per-instruction shared-store counters "
        << "(smsp__sass_..._op_st) leave its shared writes out; l1tex__data_pipe_lsu_wavefronts_mem_shared counts "
        << (wide ? "the 4- and 8-byte copies' writes as priced here, plus 2 per instruction, and a 16-byte copy's "
                   "(LDGSTS.BYPASS) as 2 per instruction whatever its banks"
                 : "them as priced here, plus 2 per instruction");
      out.push_back(s.str());
    }
    for (int d = 0; d < 2; ++d) {
      if (dynamic[d] == 0 || emu[d]->total() == 0 || (d == 1 && stores_noted)) continue;
      const bool same_widths = [&] {
        if (gpu[d]->widths.size() != emu[d]->widths.size()) return false;
        for (const auto& [w, c] : gpu[d]->widths) {
          if (emu[d]->widths.count(w) == 0) return false;
        }
        return true;
      }();
      if (same_widths) {
        // nvcc's instructions outside every loop of its code run at most once
        // per warp: more in the emulator means nvcc moved them out of the
        // source's loop (a shared accumulator kept in a register).
        const std::uint64_t most = report.warps_traced * static_cast<std::uint64_t>(gpu[d]->total());
        if (gpu[d]->in_loop || report.warps_traced == 0 || dynamic[d] <= most) continue;
        std::ostringstream s;
        s << base_name(l.where.file) << ":" << l.where.line << ": " << what[d] << "s: nvcc's "
          << describe(*gpu[d], what[d]) << " here " << (gpu[d]->total() == 1 ? "is" : "are")
          << " outside every loop of its code (it keeps the value in a register through the loop and "
          << (d == 0 ? "loads it once before" : "stores it once after") << " it); the emulator counts " << dynamic[d]
          << " " << what[d] << " instructions: Nsight Compute counts at most " << most << " here (" << gpu[d]->total()
          << " per warp that reaches " << (gpu[d]->total() == 1 ? "it" : "them") << ")";
        out.push_back(s.str());
        continue;
      }
      std::ostringstream s;
      s << base_name(l.where.file) << ":" << l.where.line << ": " << what[d] << "s: ";
      if (gpu[d]->total() == 0) {
        s << "nvcc makes no shared " << what[d] << " here (it keeps the value in a register or moves the access to "
          << "another line); the emulator counts " << dynamic[d] << " " << what[d] << " instructions ("
          << describe(*emu[d], what[d]) << " in the code): Nsight Compute counts none on this line";
      } else {
        s << "nvcc makes " << describe(*gpu[d], what[d]) << ", the emulator " << describe(*emu[d], what[d]) << " ("
          << dynamic[d] << " " << what[d] << " instructions run)";
        // The same bytes moved in nvcc's mix of widths (loop unrolling changes
        // the static counts of both sides alike, not the mix).
        const double ratio = gpu[d]->instructions_per_byte() / emu[d]->instructions_per_byte();
        s << ": for the same bytes Nsight Compute counts about "
          << static_cast<std::uint64_t>(static_cast<double>(dynamic[d]) * ratio + 0.5) << " " << what[d]
          << " instructions here; its wavefronts are not estimated";
      }
      out.push_back(s.str());
    }
  }
  return out;
}

}  // namespace banklab::emu
