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

}  // namespace

Rewritten rewrite_launches(const std::string& source) {
  Rewritten out;
  std::string& text = out.text;
  text.reserve(source.size() + 256);
  std::size_t i = 0;
  while (i < source.size()) {
    const std::size_t skipped = skip_non_code(source, i);
    if (skipped != i) {
      text.append(source, i, skipped - i);
      i = skipped;
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
    text += " | ::banklab::emu::LaunchConfig(";
    text.append(source, i + 3, close - (i + 3));
    text += ") | ::banklab::emu::launch_arguments";
    // keep the line breaks between >>> and (
    for (std::size_t k = close + 3; k < paren; ++k) text += source[k];
    text += '(';
    i = paren + 1;
    ++out.launches;
  }
  return out;
}

}  // namespace banklab::cli
