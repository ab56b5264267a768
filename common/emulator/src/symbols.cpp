// ELF symbol table of the running program (names of kernels and of their
// __shared__ variables) and addr2line for source lines.
#include "symbols.hpp"

#include "dwarf.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

namespace banklab::emu::detail {

namespace {

struct Symbol {
  std::string mangled;
  std::uintptr_t address = 0;  ///< at run time (TLS: in this thread's block)
  std::size_t size = 0;
  bool function = false;
  std::size_t alignment = 0;  ///< of a TLS variable's type, from the debug information (0: unknown)
};

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                  &std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

// The program itself: its load bias and this thread's copy of its
// thread-local block (where __shared__ variables live).
struct Program {
  std::uintptr_t bias = 0;
  std::uintptr_t tls_data = 0;
  std::size_t tls_size = 0;
};
Program program() {
  Program p;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* out = static_cast<Program*>(data);
        out->bias = info->dlpi_addr;
        out->tls_data = reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          if (info->dlpi_phdr[i].p_type == PT_TLS) out->tls_size = info->dlpi_phdr[i].p_memsz;
        }
        return 1;  // the first object is the program itself
      },
      &p);
  return p;
}
std::uintptr_t load_bias() { return program().bias; }

// The runtime's own guards around the shared variables, not variables.
bool is_guard(const std::string& name) { return name.rfind("banklab_shared_guard", 0) == 0; }

// CUDA's built-in variables are thread-local too (one set per OS thread that
// runs blocks), and kernel code reads them: neither shared memory nor a stray
// access into it.
bool is_builtin(const std::string& name) {
  return name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim";
}

// Calls from kernel code into the emulator (access hooks, barriers, atomics)
// or the C++ library lead to host code, never to __shared__ variables: the
// search for a kernel's variables does not follow them.
bool is_runtime_or_library(const std::string& mangled) {
  static const char* const prefixes[] = {"__tsan_", "_ZN7banklab", "_ZNK7banklab", "_ZSt", "_ZNSt", "_ZNKSt",
                                         "_ZNSa", "_ZNSs", "_ZNKSs", "_ZNSi", "_ZNSo", "_ZN9__gnu_cxx", "__"};
  for (const char* p : prefixes) {
    if (mangled.rfind(p, 0) == 0) return true;
  }
  // CUDA's own functions the runtime implements (__syncthreads, __shfl_sync, ...): _Z<length>__name.
  std::size_t i = 2;
  while (mangled.rfind("_Z", 0) == 0 && i < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[i]))) ++i;
  return i > 2 && mangled.compare(i, 2, "__") == 0;
}

// What the program's ELF file says: functions and data (.symtab, static
// symbols included), its thread-local variables, and, when it was linked with
// --emit-relocs, which functions each function calls and which thread-local
// variables it uses.
struct Image {
  std::vector<Symbol> table;  // functions and data, by address
  std::vector<Symbol> tls;    // thread-local variables, by address
  bool have_relocations = false;
  // by link-time function address: callees (link-time addresses) and TLS variables (indices into tls)
  std::map<std::uintptr_t, std::set<std::uintptr_t>> calls;
  std::map<std::uintptr_t, std::set<std::size_t>> uses;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> functions;  // link-time [begin, end), sorted
  std::set<std::uintptr_t> not_followed;  // link-time addresses of runtime and library functions
  std::uintptr_t function_at(std::uintptr_t link_address) const {
    auto after = std::upper_bound(functions.begin(), functions.end(), std::make_pair(link_address, ~std::uintptr_t{0}));
    if (after == functions.begin()) return 0;
    --after;
    return link_address < after->second ? after->first : 0;
  }
};

const Image& image() {
  static Image img;
  static std::once_flag once;
  std::call_once(once, [] {
    const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (fstat(fd, &st) != 0) {
      close(fd);
      return;
    }
    void* map = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return;
    const auto* base = static_cast<const unsigned char*>(map);
    const auto* header = reinterpret_cast<const Elf64_Ehdr*>(base);
    const auto* sections = reinterpret_cast<const Elf64_Shdr*>(base + header->e_shoff);
    const Program prog = program();
    const Elf64_Sym* syms = nullptr;
    std::size_t sym_count = 0;
    std::map<std::size_t, std::size_t> tls_index;  // symbol index -> index in img.tls
    const auto alignments = tls_alignments(base, static_cast<std::size_t>(st.st_size));
    for (int i = 0; i < header->e_shnum; ++i) {
      if (sections[i].sh_type != SHT_SYMTAB) continue;
      syms = reinterpret_cast<const Elf64_Sym*>(base + sections[i].sh_offset);
      const char* names = reinterpret_cast<const char*>(base + sections[sections[i].sh_link].sh_offset);
      sym_count = sections[i].sh_size / sizeof(Elf64_Sym);
      for (std::size_t s = 0; s < sym_count; ++s) {
        const int type = ELF64_ST_TYPE(syms[s].st_info);
        if (syms[s].st_shndx == SHN_UNDEF) continue;
        const std::string name = names + syms[s].st_name;
        if (type == STT_TLS) {
          if (prog.tls_data == 0) continue;
          tls_index[s] = img.tls.size();
          const auto alignment = alignments.find(syms[s].st_value);
          img.tls.push_back({name, prog.tls_data + syms[s].st_value, syms[s].st_size, false,
                             alignment != alignments.end() ? alignment->second : 0});
        } else if (type == STT_OBJECT || type == STT_FUNC) {
          img.table.push_back({name, prog.bias + syms[s].st_value, syms[s].st_size, type == STT_FUNC});
          if (type == STT_FUNC) {
            img.functions.emplace_back(syms[s].st_value, syms[s].st_value + std::max<std::size_t>(syms[s].st_size, 1));
            if (is_runtime_or_library(name)) img.not_followed.insert(syms[s].st_value);
          }
        }
      }
    }
    std::sort(img.functions.begin(), img.functions.end());
    // Relocations of code sections (kept by --emit-relocs): a call or an
    // address of a function is an edge, a TLS relocation a use.
    for (int i = 0; i < header->e_shnum && syms != nullptr; ++i) {
      if (sections[i].sh_type != SHT_RELA || sections[i].sh_info >= header->e_shnum) continue;
      if (!(sections[sections[i].sh_info].sh_flags & SHF_EXECINSTR)) continue;
      img.have_relocations = true;
      const auto* relas = reinterpret_cast<const Elf64_Rela*>(base + sections[i].sh_offset);
      const std::size_t count = sections[i].sh_size / sizeof(Elf64_Rela);
      for (std::size_t r = 0; r < count; ++r) {
        const std::size_t s = ELF64_R_SYM(relas[r].r_info);
        if (s == 0 || s >= sym_count) continue;
        const std::uintptr_t from = img.function_at(relas[r].r_offset);
        if (from == 0) continue;
        const int type = ELF64_ST_TYPE(syms[s].st_info);
        if (type == STT_TLS) {
          if (auto found = tls_index.find(s); found != tls_index.end()) img.uses[from].insert(found->second);
        } else if ((type == STT_FUNC || type == STT_SECTION) && syms[s].st_shndx != SHN_UNDEF) {
          const unsigned kind = ELF64_R_TYPE(relas[r].r_info);
          const bool pc_relative = kind == R_X86_64_PC32 || kind == R_X86_64_PLT32;
          const std::uintptr_t target =
              syms[s].st_value + static_cast<std::uintptr_t>(relas[r].r_addend) + (pc_relative ? 4 : 0);
          if (const std::uintptr_t to = img.function_at(target); to != 0 && to != from) img.calls[from].insert(to);
        }
      }
    }
    munmap(map, static_cast<std::size_t>(st.st_size));
    auto by_address = [](const Symbol& a, const Symbol& b) { return a.address < b.address; };
    std::sort(img.table.begin(), img.table.end(), by_address);
    // tls_index refers to positions before sorting: sort a permutation instead.
    std::vector<std::size_t> order(img.tls.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return by_address(img.tls[a], img.tls[b]); });
    std::vector<std::size_t> rank(order.size());
    std::vector<Symbol> sorted;
    for (std::size_t k = 0; k < order.size(); ++k) {
      rank[order[k]] = k;
      sorted.push_back(img.tls[order[k]]);
    }
    img.tls = std::move(sorted);
    for (auto& [function, vars] : img.uses) {
      std::set<std::size_t> renumbered;
      for (std::size_t v : vars) renumbered.insert(rank[v]);
      vars = std::move(renumbered);
    }
  });
  return img;
}

const std::vector<Symbol>& symbols() { return image().table; }


}  // namespace

FunctionName function_name(const void* address) {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  for (const Symbol& s : symbols()) {
    if (s.function && a >= s.address && a < s.address + std::max<std::size_t>(s.size, 1)) {
      return {s.mangled, demangle(s.mangled)};
    }
  }
  Dl_info info{};
  if (dladdr(address, &info) != 0 && info.dli_sname != nullptr) return {info.dli_sname, demangle(info.dli_sname)};
  return {};
}

bool have_symbols() { return !symbols().empty(); }

SharedSymbols shared_symbols(const void* kernel) {
  const Image& img = image();
  SharedSymbols out;
  const Program prog = program();
  out.region_lo = prog.tls_data;
  out.region_span = prog.tls_data != 0 ? prog.tls_size : 0;
  std::vector<std::size_t> chosen;
  std::vector<bool> taken(img.tls.size(), false);
  std::uintptr_t dynamic_address = 0;
  // The runtime's own thread-local state lies after the high guard (see
  // runtime.cpp); device functions the search follows (atomicAdd) use it.
  std::uintptr_t runtime_state = ~std::uintptr_t{0};
  for (const Symbol& t : img.tls) {
    if (t.mangled == "banklab_dynamic_shared") dynamic_address = t.address;
    if (t.mangled == "banklab_shared_guard_high") runtime_state = t.address;
  }
  auto take = [&](std::size_t v) {
    if (taken[v] || is_guard(img.tls[v].mangled) || is_builtin(img.tls[v].mangled) ||
        img.tls[v].mangled.rfind("_ZGV", 0) == 0 || img.tls[v].address >= runtime_state)
      return;
    // every extern __shared__ array is the dynamic block itself
    if (dynamic_address != 0 && img.tls[v].address == dynamic_address) return;
    taken[v] = true;
    chosen.push_back(v);
  };
  const auto link_address = reinterpret_cast<std::uintptr_t>(kernel) - prog.bias;
  const std::uintptr_t entry = img.have_relocations ? img.function_at(link_address) : 0;
  if (entry != 0) {
    // The kernel's own variables (its code, inlined functions included), in
    // declaration order; then those of the functions it calls, breadth first.
    std::vector<std::uintptr_t> level = {entry};
    std::set<std::uintptr_t> seen = {entry};
    while (!level.empty()) {
      std::vector<std::size_t> vars;
      std::vector<std::uintptr_t> next;
      for (const std::uintptr_t f : level) {
        if (auto u = img.uses.find(f); u != img.uses.end()) vars.insert(vars.end(), u->second.begin(), u->second.end());
        if (auto c = img.calls.find(f); c != img.calls.end()) {
          for (const std::uintptr_t callee : c->second) {
            if (img.not_followed.count(callee) == 0 && seen.insert(callee).second) next.push_back(callee);
          }
        }
      }
      std::sort(vars.begin(), vars.end());  // address order: declaration order
      for (const std::size_t v : vars) take(v);
      level = std::move(next);
    }
  } else {
    // No relocations to follow (a program linked without --emit-relocs):
    // every shared variable of the program.
    for (std::size_t v = 0; v < img.tls.size(); ++v) take(v);
  }
  for (const std::size_t v : chosen)
    out.variables.push_back({demangle(img.tls[v].mangled), img.tls[v].address, img.tls[v].size, img.tls[v].alignment});
  for (const Symbol& t : img.tls) {
    if (t.mangled == "banklab_dynamic_shared") out.dynamic = {"(dynamic shared memory)", t.address, t.size};
    // A __shared__ variable of a class type with a constructor gets a guard
    // the compiler tests each time a thread passes its declaration.
    if (t.mangled.rfind("_ZGV", 0) == 0 || is_builtin(t.mangled)) out.not_shared.push_back({t.mangled, t.address, t.size});
  }
  out.followed_calls = entry != 0;
  return out;
}

namespace {

// Frames inside the kit's CUDA headers (a float4 copy constructor, a
// cooperative group's sync) are not where the student's code is: report the
// caller's line instead.
bool in_emulator_header(const std::string& file) {
  return file.find("banklab/cuda_") != std::string::npos || file.find("/emulator/compat/") != std::string::npos;
}

SourceLocation parse_frame(const std::string& function, const std::string& file_line) {
  SourceLocation where;
  where.function = function == "??" ? "" : function;
  const auto colon = file_line.rfind(':');
  if (colon != std::string::npos && file_line.compare(0, 2, "??") != 0) {
    where.file = file_line.substr(0, colon);
    where.line = std::atoi(file_line.c_str() + colon + 1);
  }
  return where;
}

}  // namespace

namespace {
std::unordered_map<std::uintptr_t, SourceLocation> resolve_uncached(const std::vector<std::uintptr_t>& all_addresses);
}  // namespace

std::unordered_map<std::uintptr_t, SourceLocation> resolve(const std::vector<std::uintptr_t>& all_addresses) {
  // Launch after launch a program asks for the same kernel's lines: each
  // address goes to addr2line once per process (a run of addr2line reads the
  // whole executable's line table, tens of milliseconds).
  // Recursive: the crash report resolves its frames, also for a crash
  // inside this function.
  static std::recursive_mutex mutex;
  static std::unordered_map<std::uintptr_t, SourceLocation> known;
  const std::lock_guard<std::recursive_mutex> lock(mutex);
  std::unordered_map<std::uintptr_t, SourceLocation> out;
  std::vector<std::uintptr_t> unknown;
  for (std::uintptr_t pc : all_addresses) {
    const auto found = known.find(pc);
    if (found != known.end()) {
      out[pc] = found->second;
    } else if (out.emplace(pc, SourceLocation{}).second) {
      unknown.push_back(pc);
    }
  }
  if (!unknown.empty()) {
    const auto fresh = resolve_uncached(unknown);
    for (const auto& [pc, where] : fresh) out[pc] = known[pc] = where;
  }
  return out;
}

namespace {

std::unordered_map<std::uintptr_t, SourceLocation> resolve_uncached(const std::vector<std::uintptr_t>& all_addresses) {
  std::unordered_map<std::uintptr_t, SourceLocation> out;
  for (std::uintptr_t pc : all_addresses) out[pc] = SourceLocation{};
  // Only addresses in this executable have lines there (a crash's frames
  // also pass through the C library, whose addresses addr2line cannot read).
  static const void* const self_base = [] {
    Dl_info info{};
    return dladdr(reinterpret_cast<const void*>(&load_bias), &info) != 0 ? info.dli_fbase : nullptr;
  }();
  std::vector<std::uintptr_t> return_addresses;
  for (std::uintptr_t pc : all_addresses) {
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(pc - 1), &info) == 0 || info.dli_fbase == self_base)
      return_addresses.push_back(pc);
  }
  if (return_addresses.empty()) return out;
  const std::uintptr_t bias = load_bias();
  // -i prints the chain of inlined frames, innermost first; a lookup of
  // address 0 ("??" / "??:0") after each one marks where its chain ends.
  std::ostringstream command;
  command << "addr2line -i -C -f -e /proc/" << getpid() << "/exe";
  for (std::uintptr_t pc : return_addresses) command << " 0x" << std::hex << (pc - 1 - bias) << " 0";
  command << " 2>/dev/null";
  FILE* pipe = popen(command.str().c_str(), "r");
  if (pipe == nullptr) return out;
  std::vector<std::string> lines;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    std::string line(buffer);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    lines.push_back(line);
  }
  pclose(pipe);
  std::size_t next = 0;
  for (std::uintptr_t pc : return_addresses) {
    std::vector<SourceLocation> chain;
    while (next + 1 < lines.size() && !(lines[next] == "??" && lines[next + 1] == "??:0")) {
      chain.push_back(parse_frame(lines[next], lines[next + 1]));
      next += 2;
    }
    next += 2;  // the separator
    for (const SourceLocation& frame : chain) {
      if (!in_emulator_header(frame.file)) {
        out[pc] = frame;
        break;
      }
    }
  }
  return out;
}

}  // namespace

}  // namespace banklab::emu::detail
