// The link-level check of a compiled lab object (see link_check.hpp): the
// second line after the source check, standing alone: whatever the source
// looked like, the object reaches only what the allowlist names.
#include "link_check.hpp"

#include <cxxabi.h>
#include <elf.h>
#include <fnmatch.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "banklab/guarded_calls.hpp"
#include "builder.hpp"
#include "process.hpp"

namespace banklab::grader {

namespace fs = std::filesystem;

const char* lab_object_allowlist() {
  return
#include "lab_object_allowlist.inc"
      ;
}

namespace {

std::vector<std::string> allowlist_patterns() {
  std::vector<std::string> patterns;
  std::istringstream in(lab_object_allowlist());
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string word;
    while (words >> word) patterns.push_back(word);
  }
  return patterns;
}

bool allowed(const std::string& name, const std::vector<std::string>& patterns) {
  for (const auto& p : patterns) {
    if (fnmatch(p.c_str(), name.c_str(), 0) == 0) return true;
  }
  return false;
}

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

// Calls the build redirects to the emulator's checked versions.
// (banklab/guarded_calls.hpp: memory, printf, and the math functions that
// write through a pointer inside libm, where no access hook sees them.)
const std::map<std::string, std::string> kRedirects = [] {
  std::map<std::string, std::string> r;
  for (const char* name : banklab::emu::kGuardedCalls) r[name] = banklab::emu::kGuardedPrefix + std::string(name);
  return r;
}();

// Names a lab file may not define: they would take the place of the C++
// runtime's, the standard library's, the kit's or the runner's own.
bool reserved_definition(const std::string& name, unsigned char type) {
  if (name.rfind("_Z", 0) != 0) {
    // Unmangled: a variable the contract names (predicted_wavefronts) may be;
    // a function with C linkage (write, malloc, main) may not, nor a reserved name.
    if (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_NOTYPE) return true;
    static const std::set<std::string> libc_data = {"environ", "stdin",  "stdout", "stderr", "optarg",
                                                    "optind",  "opterr", "optopt", "errno",  "main"};
    return name[0] == '_' || libc_data.count(name) > 0;
  }
  // The allocation functions, and std:: written as "St".
  for (const char* prefix : {"_Znw", "_Zna", "_Zdl", "_Zda", "_ZSt"}) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  // A nested name, _ZN [cv- and ref-qualifiers] then its first component:
  // "St" (std::) or a name of a reserved namespace, whatever qualifiers a
  // member function carries (_ZNK7banklab..., _ZNVK9__gnu_cxx...).
  if (name.rfind("_ZN", 0) != 0) return false;
  std::size_t at = 3;
  while (at < name.size() && std::strchr("rVKRO", name[at]) != nullptr) ++at;
  // "St" is std::, "Sa" std::allocator, "Ss" std::string, ... (the standard abbreviations).
  if (at + 1 < name.size() && name[at] == 'S' && std::strchr("tabsiod", name[at + 1]) != nullptr) return true;
  std::size_t length = 0, digits = at;
  while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9' && length < 1000) {
    length = length * 10 + static_cast<std::size_t>(name[digits++] - '0');
  }
  if (digits == at || digits + length > name.size()) return false;
  static const std::set<std::string> reserved = {"std", "__gnu_cxx", "__cxxabiv1", "banklab", "harness", "nlohmann"};
  return reserved.count(name.substr(digits, length)) > 0;
}

struct Elf {
  std::string bytes;
  const Elf64_Ehdr* header = nullptr;
  const Elf64_Shdr* sections = nullptr;
  std::size_t section_count = 0;

  [[nodiscard]] const char* section_name(std::size_t i) const {
    const Elf64_Shdr& names = sections[header->e_shstrndx];
    return bytes.data() + names.sh_offset + sections[i].sh_name;
  }
  template <class T>
  [[nodiscard]] const T* at(std::uint64_t offset) const {
    return reinterpret_cast<const T*>(bytes.data() + offset);
  }
};

Elf read_elf(const std::string& path, const std::string& what) {
  Elf elf;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  elf.bytes = out.str();
  auto bad = [&] { return BuildError(what + " could not be checked: the compiled object is not a 64-bit ELF object", path); };
  if (elf.bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(elf.bytes.data(), ELFMAG, SELFMAG) != 0) throw bad();
  elf.header = elf.at<Elf64_Ehdr>(0);
  if (elf.header->e_ident[EI_CLASS] != ELFCLASS64 || elf.header->e_type != ET_REL ||
      elf.header->e_shoff + std::uint64_t{elf.header->e_shnum} * sizeof(Elf64_Shdr) > elf.bytes.size())
    throw bad();
  elf.sections = elf.at<Elf64_Shdr>(elf.header->e_shoff);
  elf.section_count = elf.header->e_shnum;
  for (std::size_t i = 0; i < elf.section_count; ++i) {
    const Elf64_Shdr& s = elf.sections[i];
    if (s.sh_type != SHT_NOBITS && s.sh_offset + s.sh_size > elf.bytes.size()) throw bad();
  }
  return elf;
}

bool starts_with(const char* text, const char* prefix) { return std::strncmp(text, prefix, std::strlen(prefix)) == 0; }

bool constructor_section(const char* name) {
  for (const char* prefix : {".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors"}) {
    if (starts_with(name, prefix)) return true;
  }
  return false;
}

// Where in the source a symbol is first used: "file.cu:12" from the object's
// line information (addr2line on the section of the first relocation that
// names it), or "" when it cannot tell.
std::string use_line(const Elf& elf, const std::string& object, std::size_t symbol_index, double limit_seconds) {
  for (std::size_t i = 0; i < elf.section_count; ++i) {
    const Elf64_Shdr& s = elf.sections[i];
    if (s.sh_type != SHT_RELA || s.sh_info >= elf.section_count) continue;
    const Elf64_Shdr& target = elf.sections[s.sh_info];
    if (!(target.sh_flags & SHF_EXECINSTR)) continue;
    const auto* relocations = elf.at<Elf64_Rela>(s.sh_offset);
    for (std::size_t r = 0; r < s.sh_size / sizeof(Elf64_Rela); ++r) {
      if (ELF64_R_SYM(relocations[r].r_info) != symbol_index) continue;
      std::ostringstream offset;
      offset << "0x" << std::hex << relocations[r].r_offset;
      const ProcessResult found =
          run_process({"addr2line", "-e", object, "-j", elf.section_name(s.sh_info), offset.str()}, limit_seconds);
      std::string line = found.out.substr(0, found.out.find('\n'));
      if (!found.ok() || line.empty() || line.rfind("??", 0) == 0) return "";
      if (const auto discriminator = line.find(" ("); discriminator != std::string::npos) line.erase(discriminator);
      return fs::path(line).filename().string();
    }
  }
  return "";
}

}  // namespace

std::vector<std::string> check_lab_object(const std::string& object, const std::string& source,
                                          const std::string& guarded, double limit_seconds) {
  const std::string file = fs::path(source).filename().string();
  const std::string what = file + " for the CPU emulator";
  const Elf elf = read_elf(object, what);
  auto refuse = [&](const std::string& line, const std::string& message, const std::string& advice) {
    throw BuildError(what + " is refused: " + (line.empty() ? file : line) + ": " + message,
                     (line.empty() ? file : line) + ": " + message + "\n" + advice);
  };
  std::vector<std::string> args = {"objcopy"};
  // Sections: constructors and destructors refused (the sanitizer's own
  // module constructor, which only calls the empty __tsan_init, removed);
  // data renamed for the guard.
  const Elf64_Shdr* symtab = nullptr;
  for (std::size_t i = 0; i < elf.section_count; ++i) {
    const Elf64_Shdr& s = elf.sections[i];
    if (s.sh_type == SHT_SYMTAB) {
      symtab = &s;
    }
  }
  if (symtab == nullptr || symtab->sh_link >= elf.section_count) refuse("", "the object has no symbol table", "");
  const auto* symbols = elf.at<Elf64_Sym>(symtab->sh_offset);
  const std::size_t symbol_count = symtab->sh_size / sizeof(Elf64_Sym);
  const char* strings = elf.bytes.data() + elf.sections[symtab->sh_link].sh_offset;
  auto symbol_name = [&](std::size_t i) { return std::string(strings + symbols[i].st_name); };

  for (std::size_t i = 1; i < elf.section_count; ++i) {
    const Elf64_Shdr& s = elf.sections[i];
    const char* name = elf.section_name(i);
    if (s.sh_type == SHT_RELA && s.sh_info < elf.section_count && constructor_section(elf.section_name(s.sh_info))) {
      continue;  // judged with the section it relocates
    }
    if (constructor_section(name) || s.sh_type == SHT_INIT_ARRAY || s.sh_type == SHT_FINI_ARRAY ||
        s.sh_type == SHT_PREINIT_ARRAY) {
      // The sanitizer's: exactly one entry, GCC's _sub_I_00099_0 (which calls __tsan_init).
      bool sanitizer_only = std::strcmp(name, ".init_array.00099") == 0 && s.sh_size == 8;
      if (sanitizer_only) {
        int entries = 0;
        for (std::size_t r = 0; r < elf.section_count; ++r) {
          const Elf64_Shdr& rs = elf.sections[r];
          if (rs.sh_type != SHT_RELA || rs.sh_info != i) continue;
          const auto* relocations = elf.at<Elf64_Rela>(rs.sh_offset);
          for (std::size_t k = 0; k < rs.sh_size / sizeof(Elf64_Rela); ++k, ++entries) {
            const std::size_t sym = ELF64_R_SYM(relocations[k].r_info);
            const Elf64_Sym& target = symbols[sym];
            std::string target_name = symbol_name(sym);
            if (ELF64_ST_TYPE(target.st_info) == STT_SECTION && target.st_shndx < elf.section_count) {
              target_name = elf.section_name(target.st_shndx);  // ".text._GLOBAL__sub_I_00099_0_..."
              for (const char* prefix : {".text.startup.", ".text."}) {
                if (target_name.rfind(prefix, 0) == 0) {
                  target_name.erase(0, std::strlen(prefix));
                  break;
                }
              }
            }
            sanitizer_only = sanitizer_only && (target_name.rfind("_GLOBAL__sub_I_00099_0", 0) == 0 ||
                                                target_name.rfind("_sub_I_00099_0", 0) == 0);
          }
        }
        sanitizer_only = sanitizer_only && entries == 1;
      }
      if (!sanitizer_only) {
        refuse("", std::string("the file has a static constructor or destructor (section ") + name + ")",
               "lab code runs only when a kernel or a device function is called: no file-scope object with a "
               "constructor or destructor, no __attribute__((constructor)) or destructor functions");
      }
      args.push_back(std::string("--remove-section=") + name);
      args.push_back(std::string("--remove-section=.rela") + name);
      continue;
    }
    if (!(s.sh_flags & SHF_ALLOC) || (s.sh_flags & SHF_EXECINSTR) || (s.sh_flags & SHF_TLS)) continue;
    if (starts_with(name, ".eh_frame") || starts_with(name, ".note") || starts_with(name, ".gcc_except_table")) continue;
    const char* into = s.sh_type == SHT_NOBITS ? "banklab_lab_bss"
                       : (s.sh_flags & SHF_WRITE) ? "banklab_lab_data"
                                                  : "banklab_lab_rodata";
    args.push_back("--rename-section");
    args.push_back(std::string(name) + "=" + into);
  }

  const auto patterns = allowlist_patterns();
  std::set<std::string> redefined;
  for (std::size_t i = 1; i < symbol_count; ++i) {
    const Elf64_Sym& sym = symbols[i];
    const std::string name = symbol_name(i);
    const unsigned char bind = ELF64_ST_BIND(sym.st_info);
    const unsigned char type = ELF64_ST_TYPE(sym.st_info);
    if (name.find('@') != std::string::npos) {
      refuse("", "the object has a versioned symbol `" + name + "`", "lab code may not use .symver or asm names");
    }
    if (type == STT_GNU_IFUNC) {
      refuse("", "`" + demangle(name) + "` is an ifunc", "lab code may not use __attribute__((ifunc))");
    }
    if (bind == STB_LOCAL || name.empty()) continue;
    if (sym.st_shndx == SHN_UNDEF) {
      if (kRedirects.count(name) > 0) {
        if (redefined.insert(name).second) args.push_back("--redefine-sym=" + name + "=" + kRedirects.at(name));
        continue;
      }
      if (allowed(name, patterns)) continue;
      const std::string shown = demangle(name);
      refuse(use_line(elf, object, i, limit_seconds), "calls `" + shown + "`, which lab code may not call",
             "lab code may call CUDA device functions only (__syncthreads, the warp functions, atomics, math "
             "functions, printf); `" + shown + "` is a host library or runtime function");
    }
    if (reserved_definition(name, type)) {
      refuse("", "defines `" + demangle(name) + "`, a name of the C library, the C++ runtime, the kit or the runner",
             "give your own functions and variables other names (and no extern \"C\")");
    }
  }
  // The marker the runtime turns the strict guard on by (even for an
  // object without data of its own).
  const std::string marker = guarded + ".marker";
  std::ofstream(marker, std::ios::binary) << "banklab lab object" << '\0';
  args.insert(args.end(), {"--add-section", "banklab_lab_rodata_marker=" + marker, "--set-section-flags",
                           "banklab_lab_rodata_marker=alloc,readonly,data"});
  args.push_back(object);
  args.push_back(guarded);
  return args;
}

}  // namespace banklab::grader
