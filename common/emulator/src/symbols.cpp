// ELF symbol table of the running program (names of kernels and of their
// __shared__ variables) and addr2line for source lines.
#include "symbols.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>

extern "C" {
extern char __start_banklab_shared[] __attribute__((weak));
extern char __stop_banklab_shared[] __attribute__((weak));
}

namespace banklab::emu::detail {

namespace {

struct Symbol {
  std::string mangled;
  std::uintptr_t address = 0;
  std::size_t size = 0;
  bool function = false;
};

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                  &std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

std::uintptr_t load_bias() {
  std::uintptr_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        *static_cast<std::uintptr_t*>(data) = info->dlpi_addr;
        return 1;  // the first object is the program itself
      },
      &bias);
  return bias;
}

// The program's .symtab (static symbols included), read once.
const std::vector<Symbol>& symbols() {
  static std::vector<Symbol> table;
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
    const std::uintptr_t bias = load_bias();
    for (int i = 0; i < header->e_shnum; ++i) {
      if (sections[i].sh_type != SHT_SYMTAB) continue;
      const auto* syms = reinterpret_cast<const Elf64_Sym*>(base + sections[i].sh_offset);
      const char* names = reinterpret_cast<const char*>(base + sections[sections[i].sh_link].sh_offset);
      const std::size_t count = sections[i].sh_size / sizeof(Elf64_Sym);
      for (std::size_t s = 0; s < count; ++s) {
        const int type = ELF64_ST_TYPE(syms[s].st_info);
        if ((type != STT_OBJECT && type != STT_FUNC) || syms[s].st_shndx == SHN_UNDEF) continue;
        table.push_back({names + syms[s].st_name, bias + syms[s].st_value, syms[s].st_size, type == STT_FUNC});
      }
    }
    munmap(map, static_cast<std::size_t>(st.st_size));
    std::sort(table.begin(), table.end(), [](const Symbol& a, const Symbol& b) { return a.address < b.address; });
  });
  return table;
}

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

std::vector<DataSymbol> kernel_local_statics(const std::string& mangled_kernel) {
  std::vector<DataSymbol> out;
  // A C++ function is _Z<encoding>; its local static x is _ZZ<encoding>E1x
  // (guard variables, _ZGVZ..., are not data).
  if (mangled_kernel.rfind("_Z", 0) != 0) return out;
  const std::string prefix = "_ZZ" + mangled_kernel.substr(2) + "E";
  for (const Symbol& s : symbols()) {
    if (!s.function && s.mangled.rfind(prefix, 0) == 0) out.push_back({demangle(s.mangled), s.address, s.size});
  }
  return out;
}

std::pair<std::uintptr_t, std::uintptr_t> shared_section() {
  if (__start_banklab_shared == nullptr) return {0, 0};
  return {reinterpret_cast<std::uintptr_t>(__start_banklab_shared),
          reinterpret_cast<std::uintptr_t>(__stop_banklab_shared)};
}

namespace {

// Frames inside the compatibility headers (a float4 copy constructor, say)
// are not where the student's access is: report the caller's line instead.
bool in_emulator_header(const std::string& file) {
  return file.find("banklab/cuda_types.hpp") != std::string::npos ||
         file.find("banklab/cuda_host.hpp") != std::string::npos;
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

std::unordered_map<std::uintptr_t, SourceLocation> resolve(const std::vector<std::uintptr_t>& all_addresses) {
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

}  // namespace banklab::emu::detail
