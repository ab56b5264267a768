// The libclang source check of ast_check.hpp. Two passes over the lab's own
// files: the tokens (after expanding the macros they use), for what the
// syntax tree does not show by name (asm, attributes, pragmas), and the
// syntax tree, for what each declaration is and what it refers to.
#include "ast_check.hpp"

#include <clang-c/Index.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

namespace banklab::grader {

namespace fs = std::filesystem;

namespace {

// ---- what lab code may use from the C++ and C libraries ---------------------
// Everything else of a system header is refused: a kernel has no file, no
// process, no environment and no clock of the host. The kit's own headers
// (CUDA's device API, common/emulator/include and compat) are allowed as a
// whole, except the emulator's internals (namespace banklab).

// <cmath> / <math.h>: each name also with the float (f) and long double (l)
// suffix, in the global namespace and in std.
const char* const kMathFunctions[] = {
    "abs",   "fabs",      "sqrt",  "cbrt",     "rsqrt",  "hypot", "exp",    "exp2",   "expm1",     "log",
    "log2",  "log10",     "log1p", "logb",     "ilogb",  "pow",   "sin",    "cos",    "tan",       "asin",
    "acos",  "atan",      "atan2", "sinh",     "cosh",   "tanh",  "asinh",  "acosh",  "atanh",     "floor",
    "ceil",  "round",     "lround", "llround", "trunc",  "rint",  "lrint",  "llrint", "nearbyint", "fmod",
    "remainder", "remquo", "fmin", "fmax",     "fdim",   "fma",   "copysign", "nextafter", "ldexp", "frexp",
    "modf",  "scalbn",    "scalbln", "erf",    "erfc",   "tgamma", "lgamma", "isnan", "isinf",     "isfinite",
    "isnormal", "signbit", "fpclassify", "sincos", "labs", "llabs"};

// Other functions, by qualified name; a name ending in "::" allows every
// member of that class (e.g. std::numeric_limits<T>::max()).
const char* const kLibraryFunctions[] = {
    "std::min", "std::max", "std::swap", "std::clamp", "std::move", "std::forward", "std::declval",
    "std::numeric_limits::", "std::integral_constant::", "std::is_constant_evaluated",
    "printf",          // CUDA's device printf
    "memcpy", "memset",  // CUDA's device memcpy and memset
    "__assert_fail",   // what <cassert>'s assert calls (CUDA's device assert)
};

// Compiler builtins lab code may call (the ones for bit tricks and hints;
// not __builtin_frame_address and its like, which find the runner's memory).
const char* const kBuiltins[] = {
    "__builtin_expect", "__builtin_unreachable", "__builtin_assume_aligned", "__builtin_popcount",
    "__builtin_popcountl", "__builtin_popcountll", "__builtin_clz", "__builtin_clzl", "__builtin_clzll",
    "__builtin_ctz", "__builtin_ctzl", "__builtin_ctzll", "__builtin_ffs", "__builtin_ffsl", "__builtin_ffsll",
    "__builtin_bswap16", "__builtin_bswap32", "__builtin_bswap64", "__builtin_isnan", "__builtin_isinf",
    "__builtin_isfinite", "__builtin_huge_valf", "__builtin_huge_val", "__builtin_inff", "__builtin_inf",
    "__builtin_nanf", "__builtin_nan"};

// Types of system headers lab code may name; a name ending in "::" or "*"
// allows that class's members or every name with that prefix.
const char* const kLibraryTypes[] = {
    "size_t", "ptrdiff_t", "nullptr_t", "max_align_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t", "int_fast*",
    "uint_fast*", "int_least*", "uint_least*", "std::size_t", "std::ptrdiff_t", "std::nullptr_t",
    "std::max_align_t", "std::int*", "std::uint*", "std::numeric_limits", "std::integral_constant",
    "std::bool_constant", "std::true_type", "std::false_type", "std::is_*", "std::enable_if*", "std::conditional*",
    "std::remove_*", "std::add_*", "std::decay*", "std::make_signed*", "std::make_unsigned*", "std::common_type*",
    "std::underlying_type*", "std::void_t", "std::pair", "std::float_round_style", "std::float_denorm_style",
    "__int*", "__uint*", "float_t", "double_t"};

// Attributes that place code or data where the program runs it by itself, or
// change what the linker or the emulator sees (names without the __ around).
const std::set<std::string> kRefusedAttributes = {
    "section", "constructor", "destructor", "ifunc", "alias", "weak", "weakref", "used", "retain",
    "visibility", "init_priority", "externally_visible", "symver", "target_clones", "naked", "no_sanitize",
    "no_sanitize_thread", "no_sanitize_address", "no_sanitize_undefined", "disable_sanitizer_instrumentation",
    "no_instrument_function", "cleanup"};

// Pragmas lab code may use (#pragma unroll is CUDA's).
const std::set<std::string> kAllowedPragmas = {"unroll", "nounroll", "once", "region", "endregion"};

// The kit's CUDA qualifiers, read as the qualifiers they are (the overlay
// below makes them visible in the tree), never expanded by the token pass.
const std::set<std::string> kQualifierMacros = {"__global__", "__device__", "__host__", "__shared__",
                                                "__constant__", "__forceinline__", "__noinline__",
                                                "__launch_bounds__", "__align__", "__restrict__", "__managed__"};

// Read after the kit's cuda_host.hpp: the qualifiers it defines as nothing
// become annotations the tree shows (the build itself is unchanged).
const char kOverlayName[] = "/banklab-source-check/qualifiers.h";
const char kOverlay[] = R"(#pragma once
#undef __global__
#define __global__ __attribute__((annotate("banklab:global")))
#undef __device__
#define __device__ __attribute__((annotate("banklab:device")))
#undef __host__
#define __host__ __attribute__((annotate("banklab:host")))
#undef __shared__
#define __shared__ __attribute__((annotate("banklab:shared"), aligned(16))) thread_local
#undef __constant__
#define __constant__ __attribute__((annotate("banklab:constant")))
)";

std::string text(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

std::string strip_underscores(std::string name) {
  if (name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0)
    return name.substr(2, name.size() - 4);
  return name;
}

bool matches(const std::string& name, const char* pattern) {
  const std::string p = pattern;
  if (!p.empty() && p.back() == '*') return name.rfind(p.substr(0, p.size() - 1), 0) == 0;
  if (p.size() > 2 && p.compare(p.size() - 2, 2, "::") == 0) return name.rfind(p, 0) == 0;
  return name == p;
}

template <std::size_t N>
bool in_list(const std::string& name, const char* const (&list)[N]) {
  return std::any_of(std::begin(list), std::end(list), [&](const char* p) { return matches(name, p); });
}

bool math_function(const std::string& qualified) {
  std::string name = qualified.rfind("std::", 0) == 0 ? qualified.substr(5) : qualified;
  for (const char* m : kMathFunctions) {
    const std::string base = m;
    if (name == base || name == base + "f" || name == base + "l") return true;
  }
  return false;
}

// "std::numeric_limits::max": namespaces and classes, inline namespaces left out.
std::string qualified_name(CXCursor c) {
  std::string name = text(clang_getCursorSpelling(c));
  for (CXCursor p = clang_getCursorSemanticParent(c); !clang_Cursor_isNull(p) && !clang_isTranslationUnit(p.kind);
       p = clang_getCursorSemanticParent(p)) {
    if (p.kind == CXCursor_Namespace && clang_Cursor_isInlineNamespace(p)) continue;
    if (p.kind == CXCursor_LinkageSpec) continue;
    const std::string part = text(clang_getCursorSpelling(p));
    if (part.empty()) continue;  // anonymous namespace or record
    name = part + "::" + name;
  }
  return name;
}

// const, or an array of const elements.
bool const_object(CXType t) {
  while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) t = clang_getArrayElementType(t);
  return clang_isConstQualifiedType(t) != 0;
}

enum class Origin { kLab, kKit, kSystem, kBuiltin };

struct Checker {
  CXTranslationUnit tu = nullptr;
  std::set<std::string> lab_files;  // canonical paths: the file and what it includes from its folder
  std::vector<std::string> kit_dirs;
  std::string main_file;
  std::map<std::pair<std::string, int>, AstFinding> refused;  // (file, line) -> first finding there
  std::set<std::string> contract_names;  // the contract's items: checked by check_item, not refused

  static std::string canonical(const std::string& path) {
    std::error_code e;
    const fs::path p = fs::weakly_canonical(path, e);
    return e ? path : p.string();
  }

  // canonical() of a file clang names, once per file: every cursor asks,
  // and each answer costs a readlink per component of the path.
  mutable std::map<std::string, std::string> canonical_of;
  const std::string& canonical_once(const std::string& path) const {
    auto found = canonical_of.find(path);
    if (found == canonical_of.end()) found = canonical_of.emplace(path, canonical(path)).first;
    return found->second;
  }

  // File and line where a cursor's code was written (macro uses: the use).
  std::pair<std::string, int> where(CXCursor c) const {
    CXFile file = nullptr;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, nullptr, nullptr);
    return {file ? canonical_once(text(clang_getFileName(file))) : std::string(), static_cast<int>(line)};
  }

  bool in_lab(CXCursor c) const { return lab_files.count(where(c).first) != 0; }

  Origin origin(CXCursor decl) const {
    const std::string file = where(decl).first;
    if (file.empty()) return Origin::kBuiltin;
    if (lab_files.count(file)) return Origin::kLab;
    for (const auto& dir : kit_dirs) {
      if (file.rfind(dir + "/", 0) == 0) return Origin::kKit;
    }
    return Origin::kSystem;
  }

  void refuse(const std::pair<std::string, int>& at, std::string what, std::string todo) {
    if (at.first.empty() || refused.count(at)) return;
    refused[at] = AstFinding{fs::path(at.first).filename().string(), at.second, std::move(what), std::move(todo)};
  }
  void refuse(CXCursor c, std::string what, std::string todo) { refuse(where(c), std::move(what), std::move(todo)); }

  // ---- tokens ----------------------------------------------------------------

  std::map<std::string, std::vector<std::string>> macros;  // name -> replacement tokens (last definition)

  std::vector<std::string> spellings(CXSourceRange range) const {
    CXToken* tokens = nullptr;
    unsigned n = 0;
    clang_tokenize(tu, range, &tokens, &n);
    std::vector<std::string> out;
    for (unsigned i = 0; i < n; ++i) out.push_back(text(clang_getTokenSpelling(tu, tokens[i])));
    clang_disposeTokens(tu, tokens, n);
    return out;
  }

  void collect_macro(CXCursor c) {
    std::vector<std::string> t = spellings(clang_getCursorExtent(c));
    if (t.empty()) return;
    const std::string name = t[0];
    std::size_t body = 1;
    if (clang_Cursor_isMacroFunctionLike(c)) {
      while (body < t.size() && t[body] != ")") ++body;
      ++body;
    }
    macros[name] = std::vector<std::string>(t.begin() + static_cast<long>(std::min(body, t.size())), t.end());
  }

  // Appends `token` with the macros it names expanded (their bodies, not
  // their arguments: enough to see what a macro puts in the code).
  void expand(const std::string& token, int line, std::vector<std::pair<std::string, int>>& out, int depth,
              std::set<std::string>& active) const {
    const auto m = macros.find(token);
    if (m == macros.end() || kQualifierMacros.count(token) || depth > 16 || active.count(token)) {
      out.emplace_back(token, line);
      return;
    }
    out.emplace_back(token, line);  // the name itself stays (it may be a function too)
    active.insert(token);
    for (const auto& t : m->second) expand(t, line, out, depth + 1, active);
    active.erase(token);
  }

  void check_tokens(const std::string& path) {
    CXFile file = clang_getFile(tu, path.c_str());
    if (file == nullptr) return;
    std::size_t size = 0;
    const char* contents = clang_getFileContents(tu, file, &size);
    if (contents == nullptr) return;
    CXToken* tokens = nullptr;
    unsigned n = 0;
    clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, file, 0),
                                      clang_getLocationForOffset(tu, file, static_cast<unsigned>(size))),
                   &tokens, &n);
    std::vector<std::pair<std::string, int>> stream;
    std::vector<bool> directive_start;  // a '#' that begins a line
    int last_line = 0;
    for (unsigned i = 0; i < n; ++i) {
      unsigned line = 0;
      clang_getSpellingLocation(clang_getTokenLocation(tu, tokens[i]), nullptr, &line, nullptr, nullptr);
      const std::string s = text(clang_getTokenSpelling(tu, tokens[i]));
      const bool starts = static_cast<int>(line) != last_line;
      last_line = static_cast<int>(line);
      if (s == "#" && starts) {
        // A directive: only #pragma is looked at here (a #define's body is
        // read below as tokens; #include is the preprocessor check's).
        std::vector<std::string> words;
        unsigned j = i + 1;
        for (; j < n; ++j) {
          unsigned l = 0;
          clang_getSpellingLocation(clang_getTokenLocation(tu, tokens[j]), nullptr, &l, nullptr, nullptr);
          if (l != line) break;
          words.push_back(text(clang_getTokenSpelling(tu, tokens[j])));
        }
        if (!words.empty() && words[0] == "pragma") check_pragma(words, {path, static_cast<int>(line)});
        if (!words.empty() && words[0] == "define") {
          std::set<std::string> active;
          for (std::size_t k = 2; k < words.size(); ++k) expand(words[k], static_cast<int>(line), stream, 0, active);
          stream.emplace_back(";", static_cast<int>(line));
        }
        i = j - 1;
        continue;
      }
      std::set<std::string> active;
      expand(s, static_cast<int>(line), stream, 0, active);
    }
    clang_disposeTokens(tu, tokens, n);
    check_stream(stream, path);
  }

  void check_pragma(const std::vector<std::string>& words, const std::pair<std::string, int>& at) {
    std::string first = words.size() > 1 ? words[1] : "";
    if (kAllowedPragmas.count(first)) return;
    if ((first == "GCC" || first == "clang") && words.size() > 2 && words[2] == "diagnostic") return;
    refuse(at, "#pragma " + first + (words.size() > 2 && (first == "GCC" || first == "clang") ? " " + words[2] : "") +
                   " is not allowed in a lab file (only #pragma unroll and #pragma once are)",
           "remove the #pragma");
  }

  void check_stream(const std::vector<std::pair<std::string, int>>& s, const std::string& path) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const std::string& t = s[i].first;
      const std::pair<std::string, int> at{path, s[i].second};
      if (t == "asm" || t == "__asm" || t == "__asm__") {
        refuse(at, "an asm statement: a lab file is CUDA C++, the grader cannot check assembly",
               "write it in C++ (CUDA's intrinsics, such as __popc or __shfl_sync, are allowed)");
      } else if (t == "_Pragma" && i + 2 < s.size()) {
        std::string pragma = s[i + 2].first;  // the string literal
        pragma.erase(std::remove(pragma.begin(), pragma.end(), '"'), pragma.end());
        const std::string first = pragma.substr(0, pragma.find(' '));
        if (!kAllowedPragmas.count(first)) check_pragma({"pragma", first}, at);
      } else if (t == "__attribute__" || t == "__attribute") {
        // __attribute__((name(args), name, ...)): the names at depth 2.
        int depth = 0;
        bool expect_name = false;
        for (std::size_t j = i + 1; j < s.size(); ++j) {
          const std::string& u = s[j].first;
          if (u == "(") {
            ++depth;
            expect_name = depth == 2;
            continue;
          }
          if (u == ")") {
            if (--depth <= 0) break;
            continue;
          }
          if (depth == 2 && u == ",") {
            expect_name = true;
            continue;
          }
          if (depth == 2 && expect_name) {
            check_attribute(u, at);
            expect_name = false;
          }
        }
      } else if (t == "[" && i + 1 < s.size() && s[i + 1].first == "[") {
        // [[gnu::section(".x")]], [[using gnu: used]]
        for (std::size_t j = i + 2; j + 1 < s.size() && !(s[j].first == "]" && s[j + 1].first == "]"); ++j) {
          check_attribute(s[j].first, at);
        }
      }
    }
  }

  void check_attribute(const std::string& name, const std::pair<std::string, int>& at) {
    const std::string bare = strip_underscores(name);
    if (!kRefusedAttributes.count(bare)) return;
    refuse(at, "the attribute `" + bare + "` is not allowed in a lab file (it places code or data where the program "
                   "runs or links it by itself)",
           "remove the attribute");
  }

  // ---- the tree --------------------------------------------------------------

  static bool has_annotation(CXCursor c, const char* what) {
    bool found = false;
    std::pair<bool*, const char*> data{&found, what};
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData d) {
          auto* p = static_cast<std::pair<bool*, const char*>*>(d);
          if (child.kind == CXCursor_AnnotateAttr && text(clang_getCursorSpelling(child)) == p->second) {
            *p->first = true;
            return CXChildVisit_Break;
          }
          return CXChildVisit_Continue;
        },
        &data);
    return found;
  }
  static bool is_device(CXCursor c) {
    return has_annotation(c, "banklab:device") || has_annotation(c, "banklab:global");
  }

  static std::vector<CXCursor> children(CXCursor c) {
    std::vector<CXCursor> out;
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData d) {
          static_cast<std::vector<CXCursor>*>(d)->push_back(child);
          return CXChildVisit_Continue;
        },
        &out);
    return out;
  }

  static bool is_function(CXCursorKind k) {
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
           k == CXCursor_Destructor || k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate;
  }

  std::string describe(CXCursor decl) const {
    std::string name = qualified_name(decl);
    const auto [file, line] = where(decl);
    if (!file.empty()) name += " (" + fs::path(file).filename().string() + ")";
    return name;
  }

  // May lab code refer to this function?
  void check_function_use(CXCursor use, CXCursor decl) {
    if (clang_Cursor_isNull(decl) || !is_function(decl.kind)) return;
    const std::string name = qualified_name(decl);
    // Builtins are declared where they are first used.
    const Origin from = name.rfind("__builtin_", 0) == 0 ? Origin::kBuiltin : origin(decl);
    switch (from) {
      case Origin::kLab: {
        // Its own function: it must be defined in the lab's files (a
        // declaration of its own cannot name a library function).
        // (A template's specialisation: the template's definition.)
        const CXCursor pattern = clang_getSpecializedCursorTemplate(decl);
        const CXCursor def = clang_getCursorDefinition(clang_Cursor_isNull(pattern) ? decl : pattern);
        const bool defined = !clang_Cursor_isNull(def) && in_lab(def);
        if (!defined && decl.kind != CXCursor_FunctionTemplate && !clang_CXXMethod_isDefaulted(decl) &&
            clang_getCursorAvailability(decl) != CXAvailability_NotAvailable) {
          refuse(use, "calls " + name + ", which the file declares but does not define",
                 "define it in the file, or call CUDA's device API instead");
        }
        return;
      }
      case Origin::kKit:
        if (name.rfind("banklab::", 0) == 0) {
          refuse(use, "calls " + name + ", a part of the emulator, not of CUDA's device API",
                 "use CUDA's own functions (the emulator runs them)");
        }
        return;
      case Origin::kBuiltin:
        if (in_list(name, kBuiltins) || (name.rfind("__builtin_", 0) == 0 && math_function(name.substr(10)))) return;
        refuse(use, "calls the compiler builtin " + name + ", which is not allowed in a lab file",
               "write it in C++ or with CUDA's intrinsics");
        return;
      case Origin::kSystem:
        if (math_function(name) || in_list(name, kLibraryFunctions)) return;
        refuse(use, "calls " + name + " from the C or C++ library: a lab file may call only CUDA's device API, "
                        "its own functions and <cmath>, <limits>, <type_traits>, <utility> (min, max, swap)",
               "remove the call (a kernel runs on the GPU: it has no files, no environment, no system calls)");
        return;
    }
  }

  void check_type_use(CXCursor use, CXCursor decl) {
    if (clang_Cursor_isNull(decl) || origin(decl) != Origin::kSystem) {
      if (!clang_Cursor_isNull(decl) && origin(decl) == Origin::kKit && qualified_name(decl).rfind("banklab::", 0) == 0 &&
          decl.kind != CXCursor_TypedefDecl) {
        refuse(use, "uses " + qualified_name(decl) + ", a part of the emulator, not of CUDA",
               "use CUDA's own types");
      }
      return;
    }
    const std::string name = qualified_name(decl);
    if (in_list(name, kLibraryTypes)) return;
    refuse(use, "uses the type " + name + " from the C or C++ library, which a lab file may not use",
           "use CUDA's and C++'s built-in types (int, float, float4, size_t, <cstdint>, <limits>, <type_traits>)");
  }

  static bool integral(CXType t) {
    t = clang_getCanonicalType(t);
    return (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
  }
  static bool function_pointer(CXType t) {
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_MemberPointer) return true;
    if (t.kind != CXType_Pointer && t.kind != CXType_LValueReference && t.kind != CXType_RValueReference) return false;
    const CXType p = clang_getCanonicalType(clang_getPointeeType(t));
    return p.kind == CXType_FunctionProto || p.kind == CXType_FunctionNoProto;
  }

  void check_cast(CXCursor cast) {
    const CXType to = clang_getCursorType(cast);
    const std::vector<CXCursor> kids = children(cast);
    if (kids.empty()) return;
    const CXCursor from = kids.back();
    if (function_pointer(to)) {
      refuse(cast, "a cast to a function pointer: a function pointer in a lab file must come from one of its functions",
             "take the function's address (&name) without a cast");
      return;
    }
    if (clang_getCanonicalType(to).kind == CXType_Pointer && integral(clang_getCursorType(from))) {
      // (T*)0 is a null pointer, not an address.
      CXEvalResult value = clang_Cursor_Evaluate(from);
      const bool zero = value != nullptr && clang_EvalResult_getKind(value) == CXEval_Int &&
                        clang_EvalResult_getAsLongLong(value) == 0;
      if (value != nullptr) clang_EvalResult_dispose(value);
      if (!zero) {
        refuse(cast, "a cast from an integer to a pointer: lab code may use only the pointers it is given and its "
                     "own arrays",
               "index the arrays you are given instead of making an address");
      }
    }
  }

  // Does the initialiser of a static-storage variable run code?
  bool runs_code(CXCursor var) const {
    std::pair<const Checker*, bool> data(this, false);
    clang_visitChildren(
        var,
        [](CXCursor c, CXCursor, CXClientData d) {
          auto* self = static_cast<std::pair<const Checker*, bool>*>(d);
          if (c.kind == CXCursor_LambdaExpr) return CXChildVisit_Continue;
          if (c.kind == CXCursor_CallExpr || c.kind == CXCursor_CXXNewExpr) {
            const CXCursor callee = clang_getCursorReferenced(c);
            // A defaulted constructor or a constexpr function runs nothing
            // at start-up (the compiler evaluates it); its arguments are
            // looked at below.
            const bool constant =
                !clang_Cursor_isNull(callee) &&
                ((callee.kind == CXCursor_Constructor && clang_CXXMethod_isDefaulted(callee)) ||
                 self->first->declared_constexpr(callee));
            if (!constant) {
              self->second = true;
              return CXChildVisit_Break;
            }
          }
          return CXChildVisit_Recurse;
        },
        &data);
    return data.second;
  }

  // `constexpr` (or constinit) among the declaration's specifiers, as clang
  // parsed it (after the preprocessor), not as its text is spelled: a
  // `constexpr` token a macro swallows, or one under #if 0, is not one.
  static bool declared_constexpr(CXCursor decl) {
    CXPrintingPolicy policy = clang_getCursorPrintingPolicy(decl);
    clang_PrintingPolicy_setProperty(policy, CXPrintingPolicy_TerseOutput, 1);
    const std::string printed = text(clang_getCursorPrettyPrinted(decl, policy));
    clang_PrintingPolicy_dispose(policy);
    std::istringstream words(printed.substr(0, printed.find_first_of("(={:;")));
    std::string word;
    while (words >> word) {
      if (word == "constexpr" || word == "constinit") return true;
    }
    return false;
  }

  // A class that runs code when an object of it ends.
  static bool has_destructor(CXType t) {
    t = clang_getCanonicalType(t);
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) t = clang_getArrayElementType(t);
    const CXCursor record = clang_getTypeDeclaration(t);
    if (clang_Cursor_isNull(record)) return false;
    for (const CXCursor& c : children(record)) {
      if (c.kind == CXCursor_Destructor && !clang_CXXMethod_isDefaulted(c)) return true;
      if (c.kind == CXCursor_FieldDecl && has_destructor(clang_getCursorType(c))) return true;
    }
    return false;
  }

  void check_variable(CXCursor var) {
    if (!clang_Cursor_hasVarDeclGlobalStorage(var)) return;
    const std::string name = text(clang_getCursorSpelling(var));
    const bool shared = has_annotation(var, "banklab:shared");
    // (A contract array declared but not defined is the contract's message.)
    if (clang_Cursor_hasVarDeclExternalStorage(var) && !shared && !contract_names.count(name)) {
      const CXCursor def = clang_getCursorDefinition(var);
      if (clang_Cursor_isNull(def) || !in_lab(def)) {
        refuse(var, "declares `extern " + name + "` without defining it: a lab file may not reach the program's "
                        "other variables",
               "remove the declaration");
        return;
      }
    }
    if (!declared_constexpr(var) && runs_code(var)) {
      refuse(var, name + " is initialised by code that runs when the program starts (a static constructor)",
             "initialise it with constants (or declare it constexpr)");
    } else if (has_destructor(clang_getCursorType(var))) {
      refuse(var, name + " has a destructor that runs when the program ends", "give its type no destructor");
    }
  }

  void check_function_decl(CXCursor f, const std::set<std::string>& names) {
    if (clang_CXXMethod_isDefaulted(f) || clang_getCursorAvailability(f) == CXAvailability_NotAvailable) return;
    const std::string name = text(clang_getCursorSpelling(f));
    CXCursor p = clang_getCursorSemanticParent(f);
    // Members of a lambda are the lambda's (CUDA makes them device code
    // where they are written in device code).
    if (!clang_Cursor_isNull(p) && p.kind == CXCursor_ClassDecl && text(clang_getCursorSpelling(p)).empty()) return;
    if (is_device(f) || names.count(name)) return;
    if (name == "main") {
      refuse(f, "main: a lab file has no main (the grader's runner has its own, and calls your kernels)",
             "remove main (test your kernels with the grader, or in a file of your own outside the lab file)");
      return;
    }
    refuse(f, name + " is a host function (no __device__ or __global__): a lab file holds kernels and device "
                     "functions only, and the grader does not run host code of the file",
           "mark it __host__ __device__ (or __device__), or remove it");
  }

  void walk(CXCursor c, const std::set<std::string>& names) {
    std::pair<Checker*, const std::set<std::string>*> data(this, &names);
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData d) {
          auto* self = static_cast<std::pair<Checker*, const std::set<std::string>*>*>(d);
          Checker& k = *self->first;
          if (!k.in_lab(child)) return CXChildVisit_Continue;
          switch (child.kind) {
            case CXCursor_FunctionDecl:
            case CXCursor_CXXMethod:
            case CXCursor_Constructor:
            case CXCursor_Destructor:
            case CXCursor_ConversionFunction:
            case CXCursor_FunctionTemplate:
              k.check_function_decl(child, *self->second);
              break;
            case CXCursor_VarDecl:
              k.check_variable(child);
              break;
            case CXCursor_AsmStmt:
              k.refuse(child, "an asm statement: a lab file is CUDA C++, the grader cannot check assembly",
                       "write it in C++");
              break;
            case CXCursor_CXXNewExpr:
            case CXCursor_CXXDeleteExpr:
              k.refuse(child, "new and delete allocate memory of the host in the emulator", "use arrays (__shared__, "
                       "local) or the buffers the kernel is given");
              break;
            case CXCursor_CStyleCastExpr:
            case CXCursor_CXXReinterpretCastExpr:
            case CXCursor_CXXFunctionalCastExpr:
            case CXCursor_CXXStaticCastExpr:
            case CXCursor_CXXConstCastExpr:
              k.check_cast(child);
              break;
            case CXCursor_CallExpr:
            case CXCursor_DeclRefExpr:
            case CXCursor_MemberRefExpr:
              k.check_function_use(child, clang_getCursorReferenced(child));
              if (child.kind == CXCursor_DeclRefExpr) k.check_variable_use(child, clang_getCursorReferenced(child));
              break;
            case CXCursor_OverloadedDeclRef: {
              const unsigned n = clang_getNumOverloadedDecls(child);
              for (unsigned i = 0; i < n; ++i) k.check_function_use(child, clang_getOverloadedDecl(child, i));
              break;
            }
            case CXCursor_TypeRef:
            case CXCursor_TemplateRef:
              k.check_type_use(child, clang_getCursorReferenced(child));
              break;
            case CXCursor_UnionDecl:
              k.check_union(child);
              break;
            default:
              break;
          }
          return CXChildVisit_Recurse;
        },
        &data);
  }

  // Variables of the libraries: constants only (not stdout, environ, errno).
  void check_variable_use(CXCursor use, CXCursor decl) {
    if (clang_Cursor_isNull(decl) || decl.kind != CXCursor_VarDecl) return;
    const Origin o = origin(decl);
    if (o == Origin::kLab || o == Origin::kBuiltin) return;
    const std::string name = qualified_name(decl);
    if (o == Origin::kKit) {
      if (name.rfind("banklab::", 0) == 0)
        refuse(use, "uses " + name + ", a part of the emulator, not of CUDA", "use CUDA's built-in variables");
      return;
    }
    if (const_object(clang_getCursorType(decl))) return;
    refuse(use, "uses " + name + ", a variable of the C or C++ library", "remove it: kernels have no host state");
  }

  // A union with a pointer member turns an integer into a pointer unseen.
  void check_union(CXCursor u) {
    for (const CXCursor& c : children(u)) {
      if (c.kind != CXCursor_FieldDecl) continue;
      const CXType t = clang_getCanonicalType(clang_getCursorType(c));
      if (t.kind == CXType_Pointer || t.kind == CXType_MemberPointer) {
        refuse(c, "a union with a pointer member: lab code may use only the pointers it is given and its own arrays",
               "use a struct, or keep indices instead of pointers");
      }
    }
  }
};

// ---- the contract -----------------------------------------------------------

std::string kind_words(ContractItem::Kind k) {
  switch (k) {
    case ContractItem::Kind::kDeviceFunction:
      return "function";
    case ContractItem::Kind::kKernel:
      return "kernel";
    case ContractItem::Kind::kArray:
      return "array";
  }
  return "";
}

// What is wrong with the file's declaration of `item`, in words ("" when right).
std::string check_item(Checker& k, const std::vector<CXCursor>& top, const ContractItem& item) {
  const std::string declare = "declare `" + item.declaration + "` at file scope";
  std::vector<CXCursor> found;
  for (const CXCursor& c : top) {
    if (text(clang_getCursorSpelling(c)) == item.name) found.push_back(c);
  }
  // namespaces hide the name: look one level in for a helpful message
  if (found.empty()) return "the file has no " + kind_words(item.kind) + " `" + item.name + "`: " + declare;
  const bool array = item.kind == ContractItem::Kind::kArray;
  const CXCursor* definition = nullptr;
  for (const CXCursor& c : found) {
    if (array && c.kind != CXCursor_VarDecl) return "`" + item.name + "` must be an array of ints: " + declare;
    if (!array && c.kind != CXCursor_FunctionDecl) return "`" + item.name + "` must be a " + kind_words(item.kind) + " (not a template or a variable): " + declare;
    if (clang_isCursorDefinition(c)) definition = &c;
  }
  const CXCursor c = definition ? *definition : found.front();
  const std::string type = text(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(c))));
  const std::string at = "(line " + std::to_string(k.where(c).second) + ")";
  if (array) {
    if (const_object(clang_getCursorType(c)) || k.declared_constexpr(c)) {
      return "`" + item.name + "` is const " + at + ": the grader cannot read a const array; " + declare + ", not const";
    }
    if (clang_getCursorLinkage(c) != CXLinkage_External) {
      return "`" + item.name + "` is static or in an unnamed namespace " + at + ": " + declare + ", not static";
    }
    if (definition == nullptr) return "`" + item.name + "` is declared but not defined " + at + ": " + declare + " = {...}";
    if (type != item.type) {
      const bool table = item.type.find("][") != std::string::npos;  // the diagnosis' rows of numbers
      return "`" + item.name + "` is `" + type + "` " + at + ", not `" + item.type + "`: " + declare +
             (table ? " (one row of numbers for each entry)" : " (one number for each prediction)");
    }
    return "";
  }
  if (definition == nullptr) return "`" + item.name + "` is declared but not defined " + at + ": define `" + item.declaration + "`";
  if (type != item.type) {
    return "`" + item.name + "` has the type `" + type + "` " + at + ", not `" + item.type + "`: " + declare;
  }
  if (clang_getCursorLinkage(c) != CXLinkage_External) {
    return "`" + item.name + "` is static or in an unnamed namespace " + at + ": " + declare + ", not static";
  }
  if (k.declared_constexpr(c) || clang_Cursor_isFunctionInlined(c)) {
    return "`" + item.name + "` is inline or constexpr " + at + ": the runner calls it from another file; " + declare +
           ", not inline or constexpr";
  }
  const bool kernel = Checker::has_annotation(c, "banklab:global");
  if (item.kind == ContractItem::Kind::kKernel && !kernel) return "`" + item.name + "` is not a kernel " + at + ": " + declare;
  if (item.kind == ContractItem::Kind::kDeviceFunction) {
    const bool wants_host = item.declaration.find("__host__") != std::string::npos;
    if (!Checker::has_annotation(c, "banklab:device") || (wants_host && !Checker::has_annotation(c, "banklab:host"))) {
      return "`" + item.name + "` lacks a qualifier " + at + ": " + declare +
             (wants_host ? " (the runners call it on the host and on the GPU)" : "");
    }
  }
  return "";
}

}  // namespace

AstResult check_ast(const std::string& file, const std::vector<std::string>& include_dirs,
                    const std::vector<std::string>& defines_and_includes, const Contract* contract) {
  AstResult result;
  std::vector<std::string> args = {"-x", "c++", "-std=c++17", "-fno-spell-checking", "-Wno-everything",
                                   // GCC's spelling of C++20 constinit, in the kit's headers
                                   "-D__constinit="};
  for (const auto& dir : include_dirs) args.push_back("-I" + dir);
  args.insert(args.end(), defines_and_includes.begin(), defines_and_includes.end());
  args.insert(args.end(), {"-include", kOverlayName});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  CXUnsavedFile overlay{kOverlayName, kOverlay, sizeof kOverlay - 1};
  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit tu = nullptr;
  const CXErrorCode code = clang_parseTranslationUnit2(
      index, file.c_str(), argv.data(), static_cast<int>(argv.size()), &overlay, 1,
      CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &tu);
  if (code != CXError_Success || tu == nullptr) {
    result.parse_error = "clang could not start on " + file;
    clang_disposeIndex(index);
    return result;
  }
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && result.parse_error.empty()) {
      result.parse_error = text(clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation));
    }
    clang_disposeDiagnostic(d);
  }
  if (result.parse_error.empty()) {
    result.parsed = true;
    Checker k;
    k.tu = tu;
    k.main_file = Checker::canonical(file);
    for (const auto& dir : include_dirs) k.kit_dirs.push_back(Checker::canonical(dir));
    // The lab's own files: the file and what it includes from its folder.
    const std::string folder = fs::path(k.main_file).parent_path().string() + "/";
    k.lab_files.insert(k.main_file);
    std::pair<Checker*, const std::string*> inclusion_data(&k, &folder);
    clang_getInclusions(
        tu,
        [](CXFile included, CXSourceLocation*, unsigned, CXClientData d) {
          auto* self = static_cast<std::pair<Checker*, const std::string*>*>(d);
          const std::string path = Checker::canonical(text(clang_getFileName(included)));
          if (path.rfind(*self->second, 0) == 0) self->first->lab_files.insert(path);
        },
        &inclusion_data);
    // Every macro definition (the token pass expands them).
    const CXCursor root = clang_getTranslationUnitCursor(tu);
    std::vector<CXCursor> top;
    for (const CXCursor& c : Checker::children(root)) {
      if (c.kind == CXCursor_MacroDefinition) k.collect_macro(c);
      else if (k.in_lab(c)) top.push_back(c);
    }
    std::set<std::string> contract_names;
    if (contract) {
      for (const auto& item : contract->items) contract_names.insert(item.name);
    }
    k.contract_names = contract_names;
    for (const auto& path : k.lab_files) k.check_tokens(path);
    k.walk(root, contract_names);
    for (auto& [where, finding] : k.refused) result.refused.push_back(finding);
    if (contract) {
      for (const auto& item : contract->items) {
        const std::string problem = check_item(k, top, item);
        if (!problem.empty()) result.declaration_problems[item.name] = problem;
      }
    }
  }
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(index);
  return result;
}

}  // namespace banklab::grader
