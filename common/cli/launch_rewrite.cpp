#include "launch_rewrite.hpp"

#include <algorithm>
#include <cctype>

namespace banklab::cli {

namespace {

// Index just past the comment or literal starting at i, or i if none starts there.
std::size_t skip_non_code(const std::string& s, std::size_t i) {
  if (s.compare(i, 2, "//") == 0) {
    const auto end = s.find('\n', i);
    return end == std::string::npos ? s.size() : end;
  }
  if (s.compare(i, 2, "/*") == 0) {
    const auto end = s.find("*/", i + 2);
    return end == std::string::npos ? s.size() : end + 2;
  }
  if (s[i] == 'R' && i + 1 < s.size() && s[i + 1] == '"' && (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'))) {
    // raw string R"delim( ... )delim"
    const auto open = s.find('(', i + 2);
    if (open == std::string::npos) return i;
    const std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
    const auto end = s.find(close, open);
    return end == std::string::npos ? s.size() : end + close.size();
  }
  if (s[i] == '"' || (s[i] == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1]))))) {
    // (a quote after a hex digit is a digit separator: 1'000)
    const char quote = s[i];
    std::size_t j = i + 1;
    while (j < s.size() && s[j] != quote && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
    return std::min(j + 1, s.size());
  }
  return i;
}

int line_at(const std::string& s, std::size_t i) {
  int line = 1;
  for (std::size_t k = 0; k < i && k < s.size(); ++k) line += s[k] == '\n';
  return line;
}

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::size_t skip_spaces(const std::string& s, std::size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// The length of `cudaLaunchKernel` or `cudaLaunchCooperativeKernel` if a call
// of one starts at i (the name, then '('), else 0.
std::size_t launch_call_at(const std::string& s, std::size_t i) {
  for (const char* call : {"cudaLaunchKernel", "cudaLaunchCooperativeKernel"}) {
    const std::size_t n = std::char_traits<char>::length(call);
    if (s.compare(i, n, call) != 0 || (i > 0 && is_identifier_char(s[i - 1])) ||
        (i + n < s.size() && is_identifier_char(s[i + n]))) {
      continue;
    }
    const std::size_t j = skip_spaces(s, i + n);
    return j < s.size() && s[j] == '(' ? n : 0;
  }
  return 0;
}

// `void*` or `const void*` (with any spaces) at j: the index just past it, or npos.
std::size_t void_pointer_at(const std::string& s, std::size_t j) {
  j = skip_spaces(s, j);
  if (s.compare(j, 5, "const") == 0 && !is_identifier_char(s[j + 5])) j = skip_spaces(s, j + 5);
  if (s.compare(j, 4, "void") != 0 || is_identifier_char(s[j + 4])) return std::string::npos;
  j = skip_spaces(s, j + 4);
  if (j >= s.size() || s[j] != '*') return std::string::npos;
  return skip_spaces(s, j + 1);
}

// A cast to `void*` or `const void*` starting at j, `(void*)` or
// `reinterpret_cast<void*>`: the index of its first character and just past
// it (the operand's parentheses of reinterpret_cast stay).
bool void_cast_at(const std::string& s, std::size_t j, std::size_t& cast_begin, std::size_t& cast_end) {
  if (j >= s.size()) return false;
  if (s[j] == '(') {
    const std::size_t k = void_pointer_at(s, j + 1);
    if (k >= s.size() || s[k] != ')') return false;
    cast_begin = j;
    cast_end = k + 1;
    return true;
  }
  const std::string named = "reinterpret_cast";
  if (s.compare(j, named.size(), named) != 0 || is_identifier_char(s[j + named.size()])) return false;
  const std::size_t open = skip_spaces(s, j + named.size());
  if (open >= s.size() || s[open] != '<') return false;
  const std::size_t k = void_pointer_at(s, open + 1);
  if (k >= s.size() || s[k] != '>') return false;
  cast_begin = j;
  cast_end = k + 1;
  return true;
}

// If the call's first argument (its '(' at or after i) begins with a cast to
// `void*` or `const void*`: the index of the cast's start and just past it.
bool find_void_cast(const std::string& s, std::size_t i, std::size_t& cast_begin, std::size_t& cast_end) {
  return void_cast_at(s, skip_spaces(s, s.find('(', i) + 1), cast_begin, cast_end);
}

// A graph kernel node's `func` assigned a cast kernel, `p.func = (void*)k`,
// `p->func = ...` or `{.func = ...}` with `func` at i: the cast's span.
bool find_node_func_cast(const std::string& s, std::size_t i, std::size_t& cast_begin, std::size_t& cast_end) {
  if (s.compare(i, 4, "func") != 0 || is_identifier_char(s[i + 4])) return false;
  std::size_t before = i;
  while (before > 0 && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
  if (before == 0 || !(s[before - 1] == '.' || (s[before - 1] == '>' && before > 1 && s[before - 2] == '-')))
    return false;
  const std::size_t eq = skip_spaces(s, i + 4);
  if (eq >= s.size() || s[eq] != '=' || (eq + 1 < s.size() && s[eq + 1] == '=')) return false;
  return void_cast_at(s, skip_spaces(s, eq + 1), cast_begin, cast_end);
}

// The text between begin and end as spaces (line breaks kept: the columns and lines stay).
void blank(std::string& text, const std::string& source, std::size_t begin, std::size_t end) {
  for (std::size_t k = begin; k < end; ++k) text += source[k] == '\n' ? '\n' : ' ';
}

// The kernel of a launch whose `<<<` is at `at`, when it is a plain name
// (`k`, `ns::k`, `k<float, 4>`): its text, for a call by name that gets the
// kernel's default arguments; empty for anything else (a pointer through an
// expression, a member), which then launches only with every argument given.
std::string kernel_name_before(const std::string& s, std::size_t at) {
  std::size_t end = at;
  while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t')) --end;
  std::size_t begin = end;
  if (begin > 0 && s[begin - 1] == '>') {
    // Template arguments: back to their '<', brackets balanced, on one line.
    int depth = 0;
    while (begin > 0) {
      const char c = s[--begin];
      if (c == '>') ++depth;
      if (c == '<' && --depth == 0) break;
      if (c == ';' || c == '{' || c == '}' || c == '\n' || c == '"' || c == '\'') return "";
    }
    if (depth != 0) return "";
  }
  while (begin > 0 && (is_identifier_char(s[begin - 1]) || s[begin - 1] == ':')) --begin;
  if (begin == end || !(std::isalpha(static_cast<unsigned char>(s[begin])) || s[begin] == '_' || s[begin] == ':')) {
    return "";
  }
  std::size_t before = begin;
  while (before > 0 && (s[before - 1] == ' ' || s[before - 1] == '\t')) --before;
  if (before > 0 && (s[before - 1] == '.' || s[before - 1] == '>' || s[before - 1] == ']')) {
    return "";  // a member, or a member through a pointer
  }
  return s.substr(begin, end - begin);
}

}  // namespace

Rewritten rewrite_launches(const std::string& source, const std::vector<std::string>& kit_dirs) {
  Rewritten out;
  std::string& text = out.text;
  text.reserve(source.size() + 256);
  std::size_t i = 0;
  bool in_kit = false;
  while (i < source.size()) {
    if (!kit_dirs.empty() && (i == 0 || source[i - 1] == '\n')) {
      const std::size_t end = std::min(source.find('\n', i), source.size() - 1) + 1;
      if (source[i] == '#' && i + 2 < source.size() && source[i + 1] == ' ' &&
          std::isdigit(static_cast<unsigned char>(source[i + 2]))) {
        // A line marker: are the lines after it in one of the kit's headers?
        const std::size_t open = source.find('"', i);
        in_kit = false;
        for (const auto& dir : kit_dirs) in_kit = in_kit || (open < end && source.compare(open + 1, dir.size(), dir) == 0);
      }
      if (in_kit || source[i] == '#') {
        text.append(source, i, end - i);
        i = end;
        continue;
      }
    }
    const std::size_t skipped = skip_non_code(source, i);
    if (skipped != i) {
      text.append(source, i, skipped - i);
      i = skipped;
      continue;
    }
    if (const std::size_t name = source[i] == 'c' ? launch_call_at(source, i) : 0; name != 0) {
      ++out.launches;
      std::size_t cast_begin = 0, cast_end = 0;
      if (find_void_cast(source, i + name, cast_begin, cast_end)) {
        // cudaLaunchKernel((void*)kernel, ...): the cast goes (spaces keep the columns).
        text.append(source, i, cast_begin - i);
        blank(text, source, cast_begin, cast_end);
        i = cast_end;
      } else {
        text.append(source, i, name);
        i += name;
      }
      continue;
    }
    if (std::size_t cast_begin = 0, cast_end = 0;
        source[i] == 'f' && find_node_func_cast(source, i, cast_begin, cast_end)) {
      // params.func = (void*)kernel: a cast that keeps the kernel's type for a
      // graph node, and gives the same void* elsewhere (cuda_graph.hpp).
      ++out.graph_kernels;
      text.append(source, i, cast_begin - i);
      text += "::banklab::emu::node_func_cast->*";
      for (std::size_t k = cast_begin; k < cast_end; ++k) text += source[k] == '\n' ? "\n" : "";
      i = cast_end;
      continue;
    }
    if (source.compare(i, 3, "<<<") != 0) {
      text += source[i++];
      continue;
    }
    // The configuration: up to the ">>>" at bracket depth 0.
    std::size_t j = i + 3;
    int depth = 0;
    std::size_t close = std::string::npos;
    while (j < source.size()) {
      const std::size_t k = skip_non_code(source, j);
      if (k != j) {
        j = k;
        continue;
      }
      const char c = source[j];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (c == ';' && depth <= 0) break;
      if (depth == 0 && source.compare(j, 3, ">>>") == 0) {
        close = j;
        break;
      }
      ++j;
    }
    if (close == std::string::npos) throw RewriteError(line_at(source, i), "a kernel launch '<<<' without its '>>>'");
    std::size_t paren = close + 3;
    while (paren < source.size() && (source[paren] == ' ' || source[paren] == '\t' || source[paren] == '\n' ||
                                      source[paren] == '\r')) {
      ++paren;
    }
    if (paren >= source.size() || source[paren] != '(')
      throw RewriteError(line_at(source, close), "a kernel launch '<<<...>>>' not followed by its arguments '(...)'");
    const std::string kernel = kernel_name_before(source, i);
    text += " | ::banklab::emu::LaunchConfig(";
    text.append(source, i + 3, close - (i + 3));
    text += ")";
    if (!kernel.empty()) {
      // A call by name, used only when the launch leaves out arguments that
      // have defaults (cuda_launch.hpp): a generic lambda, never instantiated otherwise.
      text += " | ::banklab::emu::by_name([&](auto&&... banklab_args) -> decltype(" + kernel +
              "(static_cast<decltype(banklab_args)&&>(banklab_args)...)) { " + kernel +
              "(static_cast<decltype(banklab_args)&&>(banklab_args)...); })";
    }
    text += " | ::banklab::emu::launch_arguments";
    // keep the line breaks between >>> and (
    for (std::size_t k = close + 3; k < paren; ++k) text += source[k];
    text += '(';
    i = paren + 1;
    ++out.launches;
  }
  return out;
}

}  // namespace banklab::cli
