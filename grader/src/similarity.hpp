// Similarity of submissions for the class report: normalised token streams
// (comments, whitespace and #include lines gone, every identifier that is
// not a keyword or a CUDA name renamed to one symbol), k-gram fingerprints
// chosen by winnowing, and the pairs whose fingerprint sets overlap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace banklab::grader::similarity {

/// One normalised token and the source line it came from.
struct Token {
  std::string text;
  int line = 0;
};

/// The normalised tokens of a C++/CUDA source. Renaming a variable,
/// rewriting a comment or re-indenting does not change them.
std::vector<Token> normalised_tokens(const std::string& source);

/// One winnowed k-gram: its hash and the lines it spans.
struct Fingerprint {
  std::uint64_t hash = 0;
  int first_line = 0;
  int last_line = 0;
};

/// The fingerprints of a token stream: the hash of every run of `k`
/// tokens, and of each window of `window` consecutive hashes the smallest
/// (the rightmost of equal ones), each position once. Any run of at least
/// k + window - 1 tokens that two streams share gives both a fingerprint.
std::vector<Fingerprint> winnow(const std::vector<Token>& tokens, int k, int window);

/// Every k-gram hash of a stream (for the base file: a passage of the
/// skeleton is everyone's and is ignored wherever it appears).
std::vector<std::uint64_t> all_kgram_hashes(const std::vector<Token>& tokens, int k);

struct Options {
  int k = 12;
  int window = 6;
  /// Pairs at or above this share of common fingerprints (Jaccard) are
  /// flagged as near-identical.
  double threshold = 0.7;
  /// A file with fewer fingerprints of its own than this (after the base
  /// file's are removed: an unedited skeleton) is not compared.
  std::size_t min_fingerprints = 8;
};

struct Source {
  std::string name;  ///< the student
  std::string text;
};

struct Pair {
  std::size_t a = 0, b = 0;  ///< indices into the sources, a < b
  double similarity = 0;     ///< shared fingerprints / fingerprints of either (Jaccard)
  bool identical = false;    ///< the same normalised token stream
  std::size_t shared = 0;
  std::vector<int> lines_a, lines_b;  ///< lines of each file inside a shared fingerprint
};

struct Result {
  std::vector<Pair> pairs;  ///< flagged pairs, most similar first
  /// Flagged groups (connected through flagged pairs), each sorted, the
  /// largest first.
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::size_t> fingerprints;  ///< per source, after the base file's are removed
};

/// Compares every pair of `sources`; `base` is the skeleton everyone started from.
Result compare(const std::vector<Source>& sources, const std::string& base, const Options& options = {});

}  // namespace banklab::grader::similarity
