// Normalised tokens, winnowing and pairwise comparison (similarity.hpp).
#include "similarity.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>
#include <unordered_set>

namespace banklab::grader::similarity {

namespace {

// Names a student does not choose: C++ keywords and types, CUDA's
// qualifiers, built-in variables, vector types and device functions. They
// stay as they are; every other identifier becomes "$", so that renaming a
// variable or a helper changes nothing.
const std::unordered_set<std::string>& kept_names() {
  static const std::unordered_set<std::string> names = {
      // C++
      "alignas", "alignof", "auto", "bool", "break", "case", "char", "const", "constexpr", "const_cast", "continue",
      "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "extern", "false",
      "float", "for", "goto", "if", "inline", "int", "long", "namespace", "new", "noexcept", "nullptr", "operator",
      "private", "protected", "public", "register", "reinterpret_cast", "return", "short", "signed", "sizeof",
      "static", "static_assert", "static_cast", "struct", "switch", "template", "this", "true", "typedef",
      "typename", "union", "unsigned", "using", "void", "volatile", "while", "class", "std", "size_t", "uint32_t",
      "int32_t", "uint64_t", "int64_t", "uint16_t", "uint8_t",
      // CUDA
      "__global__", "__device__", "__host__", "__shared__", "__constant__", "__restrict__", "__forceinline__",
      "__syncthreads", "__syncwarp", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "min", "max",
      "half", "float2", "float4", "double2", "int2", "int4", "uint2", "uint4", "__half", "__half2", "atomicAdd",
      "atomicCAS", "__shfl_sync", "__ldg", "printf"};
  return names;
}

bool identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// FNV-1a over a k-gram's token texts, with a separator so that "a b" and
// "ab" differ.
std::uint64_t hash_kgram(const std::vector<Token>& tokens, std::size_t from, int k) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = from; i < from + static_cast<std::size_t>(k); ++i) {
    for (unsigned char c : tokens[i].text) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

std::vector<Token> normalised_tokens(const std::string& s) {
  static const char* const kOperators[] = {"<<=", ">>=", "->*", "...", "::", "->", "++", "--", "<<", ">>", "<=",
                                           ">=",  "==",  "!=",  "&&",  "||", "+=", "-=", "*=", "/=", "%=", "&=",
                                           "|=",  "^=",  ".*"};
  std::vector<Token> tokens;
  int line = 1;
  bool line_start = true;  // only whitespace so far on this line
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) line += s[i++] == '\n';
      i = std::min(n, i + 2);
      continue;
    }
    // #include lines are everyone's; other directives (#define) are code.
    if (c == '#' && line_start) {
      std::size_t j = i + 1;
      while (j < n && (s[j] == ' ' || s[j] == '\t')) ++j;
      if (s.compare(j, 7, "include") == 0) {
        while (i < n && s[i] != '\n') ++i;
        continue;
      }
    }
    line_start = false;
    if (identifier_start(c)) {
      std::size_t j = i;
      while (j < n && identifier_char(s[j])) ++j;
      const std::string word = s.substr(i, j - i);
      // A member after . or -> (threadIdx.x, v.y) is part of the type's
      // interface, not a name the student picked.
      const bool member = !tokens.empty() && (tokens.back().text == "." || tokens.back().text == "->");
      tokens.push_back({member || kept_names().count(word) ? word : "$", line});
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      std::size_t j = i;
      while (j < n && (identifier_char(s[j]) || s[j] == '.' ||
                       ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
        ++j;
      tokens.push_back({s.substr(i, j - i), line});
      i = j;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < n && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      tokens.push_back({c == '"' ? "\"\"" : "''", line});
      i = std::min(n, j + 1);
      continue;
    }
    std::string op(1, c);
    for (const char* candidate : kOperators) {
      const std::size_t length = std::char_traits<char>::length(candidate);
      if (s.compare(i, length, candidate) == 0) {
        op = candidate;
        break;
      }
    }
    tokens.push_back({op, line});
    i += op.size();
  }
  return tokens;
}

std::vector<std::uint64_t> all_kgram_hashes(const std::vector<Token>& tokens, int k) {
  std::vector<std::uint64_t> hashes;
  if (k <= 0 || tokens.size() < static_cast<std::size_t>(k)) return hashes;
  for (std::size_t i = 0; i + k <= tokens.size(); ++i) hashes.push_back(hash_kgram(tokens, i, k));
  return hashes;
}

std::vector<Fingerprint> winnow(const std::vector<Token>& tokens, int k, int window) {
  const std::vector<std::uint64_t> hashes = all_kgram_hashes(tokens, k);
  std::vector<Fingerprint> chosen;
  if (hashes.empty()) return chosen;
  const std::size_t w = static_cast<std::size_t>(std::max(1, window));
  auto fingerprint = [&](std::size_t at) {
    return Fingerprint{hashes[at], tokens[at].line, tokens[at + static_cast<std::size_t>(k) - 1].line};
  };
  if (hashes.size() <= w) {
    // A stream shorter than one window: its smallest hash.
    std::size_t best = 0;
    for (std::size_t i = 1; i < hashes.size(); ++i) best = hashes[i] <= hashes[best] ? i : best;
    chosen.push_back(fingerprint(best));
    return chosen;
  }
  std::size_t last = hashes.size();  // position chosen last (none yet)
  for (std::size_t start = 0; start + w <= hashes.size(); ++start) {
    std::size_t best = start;
    for (std::size_t i = start + 1; i < start + w; ++i) best = hashes[i] <= hashes[best] ? i : best;
    if (best != last) {
      chosen.push_back(fingerprint(best));
      last = best;
    }
  }
  return chosen;
}

Result compare(const std::vector<Source>& sources, const std::string& base, const Options& options) {
  const std::vector<std::uint64_t> base_list = all_kgram_hashes(normalised_tokens(base), options.k);
  const std::unordered_set<std::uint64_t> base_hashes(base_list.begin(), base_list.end());
  struct Prepared {
    std::vector<Token> tokens;
    std::map<std::uint64_t, std::vector<const Fingerprint*>> by_hash;
    std::vector<Fingerprint> fingerprints;
  };
  std::vector<Prepared> prepared(sources.size());
  Result result;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    Prepared& p = prepared[i];
    p.tokens = normalised_tokens(sources[i].text);
    for (const Fingerprint& f : winnow(p.tokens, options.k, options.window)) {
      if (!base_hashes.count(f.hash)) p.fingerprints.push_back(f);
    }
    for (const Fingerprint& f : p.fingerprints) p.by_hash[f.hash].push_back(&f);
    result.fingerprints.push_back(p.by_hash.size());
  }
  for (std::size_t a = 0; a < sources.size(); ++a) {
    for (std::size_t b = a + 1; b < sources.size(); ++b) {
      const Prepared& pa = prepared[a];
      const Prepared& pb = prepared[b];
      if (pa.by_hash.size() < options.min_fingerprints || pb.by_hash.size() < options.min_fingerprints) continue;
      Pair pair{a, b};
      std::set<int> lines_a, lines_b;
      for (const auto& [hash, where] : pa.by_hash) {
        const auto other = pb.by_hash.find(hash);
        if (other == pb.by_hash.end()) continue;
        ++pair.shared;
        for (const Fingerprint* f : where)
          for (int l = f->first_line; l <= f->last_line; ++l) lines_a.insert(l);
        for (const Fingerprint* f : other->second)
          for (int l = f->first_line; l <= f->last_line; ++l) lines_b.insert(l);
      }
      const std::size_t either = pa.by_hash.size() + pb.by_hash.size() - pair.shared;
      pair.similarity = either == 0 ? 0 : static_cast<double>(pair.shared) / static_cast<double>(either);
      pair.identical = pa.tokens.size() == pb.tokens.size() &&
                       std::equal(pa.tokens.begin(), pa.tokens.end(), pb.tokens.begin(),
                                  [](const Token& x, const Token& y) { return x.text == y.text; });
      if (!pair.identical && pair.similarity < options.threshold) continue;
      pair.lines_a.assign(lines_a.begin(), lines_a.end());
      pair.lines_b.assign(lines_b.begin(), lines_b.end());
      result.pairs.push_back(std::move(pair));
    }
  }
  std::stable_sort(result.pairs.begin(), result.pairs.end(), [](const Pair& x, const Pair& y) {
    return x.identical != y.identical ? x.identical : x.similarity > y.similarity;
  });
  // Groups: the connected parts of the flagged pairs (union-find).
  std::vector<std::size_t> parent(sources.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const Pair& p : result.pairs) parent[root(p.a)] = root(p.b);
  std::map<std::size_t, std::vector<std::size_t>> groups;
  for (const Pair& p : result.pairs) {
    groups[root(p.a)];
  }
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (groups.count(root(i))) groups[root(i)].push_back(i);
  }
  for (auto& [r, members] : groups) result.groups.push_back(members);
  std::stable_sort(result.groups.begin(), result.groups.end(),
                   [](const auto& x, const auto& y) { return x.size() > y.size(); });
  return result;
}

}  // namespace banklab::grader::similarity
