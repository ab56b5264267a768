// The class report's similarity flags (grader/src/similarity.*): renamed
// names, rewritten comments and layout do not hide a copy; the skeleton
// everyone was given is not a match; correct solutions written
// independently are not flagged.
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "similarity.hpp"

namespace {

namespace sim = banklab::grader::similarity;

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kSource = BANKLAB_SOURCE_DIR;

std::string fixture(const std::string& name) { return text_of(kSource + "/tests/grader/similarity/" + name); }

std::vector<std::string> texts(const std::vector<sim::Token>& tokens) {
  std::vector<std::string> out;
  for (const auto& t : tokens) out.push_back(t.text);
  return out;
}

// A copy as a student hides one: every name of `renames` replaced (whole
// words), every comment rewritten, the indentation and blank lines changed.
std::string disguise(std::string text, const std::vector<std::pair<std::string, std::string>>& renames, int copy) {
  for (const auto& [from, to] : renames) text = std::regex_replace(text, std::regex("\\b" + from + "\\b"), to);
  text = std::regex_replace(text, std::regex("//[^\n]*"), "// my own work, version " + std::to_string(copy));
  text = std::regex_replace(text, std::regex("\n  "), copy % 2 ? "\n\t" : "\n    ");
  text = std::regex_replace(text, std::regex(";\n"), copy % 3 ? ";\n\n" : ";  \n");
  return text;
}

const std::vector<std::vector<std::pair<std::string, std::string>>> kRenames = {
    {},
    {{"buffer", "tile"}, {"column", "x"}, {"row_base", "y0"}, {"step", "j"}, {"value", "v"}},
    {{"buffer", "smem"}, {"out_column", "ocol"}, {"out_row_base", "orow0"}, {"TILE", "TILE_DIM"}, {"ROWS", "BLOCK_ROWS"}},
    {{"buffer", "s"}, {"row", "r"}, {"out_row", "orow"}, {"step", "i"}, {"column", "c"}, {"width", "w"}, {"height", "h"}},
    {{"buffer", "shared_tile"}, {"value", "element"}, {"step", "offset"}, {"in", "src"}, {"out", "dst"}},
    {{"buffer", "b"}, {"column", "gx"}, {"row_base", "gy0"}, {"out_column", "ox"}, {"out_row_base", "oy0"}, {"row", "gy"},
     {"out_row", "oy"}}};

}  // namespace

TEST_CASE("renaming names, rewriting comments and re-indenting leave the normalised tokens unchanged") {
  const std::string original = fixture("copied_original.cu");
  for (std::size_t copy = 1; copy < kRenames.size(); ++copy) {
    const std::string disguised = disguise(original, kRenames[copy], static_cast<int>(copy));
    CHECK(disguised != original);
    CHECK(texts(sim::normalised_tokens(disguised)) == texts(sim::normalised_tokens(original)));
  }
  // What the normalisation keeps: keywords, CUDA names, members, numbers, operators.
  CHECK(texts(sim::normalised_tokens("int a = threadIdx.x + 33; // note\n/* more */ foo(a);")) ==
        std::vector<std::string>{"int", "$", "=", "threadIdx", ".", "x", "+", "33", ";", "$", "(", "$", ")", ";"});
  // A change of code is a change of tokens.
  CHECK(texts(sim::normalised_tokens("a = b + 1;")) != texts(sim::normalised_tokens("a = b - 1;")));
}

TEST_CASE("winnowing: any run of k + window - 1 tokens two streams share gives both the same fingerprint") {
  std::mt19937 rng(7);
  const int k = 5, window = 4;
  for (int trial = 0; trial < 200; ++trial) {
    auto random_stream = [&](std::size_t n) {
      std::vector<sim::Token> s;
      for (std::size_t i = 0; i < n; ++i) s.push_back({std::to_string(rng() % 50), static_cast<int>(i)});
      return s;
    };
    const auto shared = random_stream(k + window - 1);
    auto a = random_stream(rng() % 40), b = random_stream(rng() % 40);
    a.insert(a.begin() + static_cast<long>(a.empty() ? 0 : rng() % a.size()), shared.begin(), shared.end());
    b.insert(b.begin() + static_cast<long>(b.empty() ? 0 : rng() % b.size()), shared.begin(), shared.end());
    std::set<std::uint64_t> fa, fb;
    for (const auto& f : sim::winnow(a, k, window)) fa.insert(f.hash);
    for (const auto& f : sim::winnow(b, k, window)) fb.insert(f.hash);
    bool common = false;
    for (auto h : fa) common = common || fb.count(h);
    CHECK_MESSAGE(common, "trial " << trial);
  }
}

TEST_CASE("six copies of one solution with renamed names and new comments are one flagged group, and four correct "
          "solutions written independently are not flagged") {
  const std::string skeleton = text_of(kSource + "/labs/03-padded-transpose/transpose.cu");
  std::vector<sim::Source> sources;
  const std::string original = fixture("copied_original.cu");
  for (std::size_t copy = 0; copy < kRenames.size(); ++copy)
    sources.push_back({"copy" + std::to_string(copy), disguise(original, kRenames[copy], static_cast<int>(copy))});
  const std::vector<std::string> different = {"different_swizzle.cu", "different_unrolled.cu", "different_linear.cu"};
  for (const auto& name : different) sources.push_back({name, fixture(name)});
  sources.push_back({"reference", text_of(kSource + "/solutions/03-padded-transpose/transpose.cu")});
  // Two students who handed in the untouched skeleton wrote nothing alike.
  sources.push_back({"skeleton1", skeleton});
  sources.push_back({"skeleton2", skeleton});

  const sim::Result result = sim::compare(sources, skeleton);
  REQUIRE(result.groups.size() == 1);
  std::set<std::string> group;
  for (std::size_t i : result.groups[0]) group.insert(sources[i].name);
  CHECK(group == std::set<std::string>{"copy0", "copy1", "copy2", "copy3", "copy4", "copy5"});
  CHECK(result.pairs.size() == 15);  // every pair of the six
  for (const auto& p : result.pairs) {
    INFO(sources[p.a].name << " ~ " << sources[p.b].name << ": " << p.similarity);
    CHECK(p.identical);
    CHECK(!p.lines_a.empty());
  }
  // The highest similarity between any two of the others stays well under
  // the flag (printed so that the margin is on record).
  double highest = 0;
  std::string highest_pair;
  sim::Options everything;
  everything.threshold = 0;
  const sim::Result all = sim::compare(sources, skeleton, everything);
  for (const auto& p : all.pairs) {
    if (sources[p.a].name.rfind("copy", 0) == 0 && sources[p.b].name.rfind("copy", 0) == 0) continue;
    if (p.similarity > highest) {
      highest = p.similarity;
      highest_pair = sources[p.a].name + " ~ " + sources[p.b].name;
    }
  }
  MESSAGE("most similar pair of the others: " << highest_pair << ", " << highest);
  CHECK(highest < 0.7);
}

TEST_CASE("a copy with a few lines changed is still flagged as near-identical, not as identical") {
  const std::string skeleton = text_of(kSource + "/labs/03-padded-transpose/transpose.cu");
  const std::string original = fixture("copied_original.cu");
  std::string edited = disguise(original, kRenames[1], 1);
  // One statement changed and one added: the rest is the copy.
  edited = std::regex_replace(edited, std::regex("j \\+= ROWS;"), "j = j + ROWS;");
  edited = std::regex_replace(edited, std::regex("__syncthreads\\(\\);"), "__syncthreads();\n  int unused = 0;");
  const sim::Result result = sim::compare({{"a", original}, {"b", edited}}, skeleton);
  REQUIRE(result.pairs.size() == 1);
  CHECK(!result.pairs[0].identical);
  CHECK(result.pairs[0].similarity >= 0.7);
  CHECK(result.pairs[0].similarity < 1.0);
}
