// Runner answers priced and judged by the grader (raw_answers.hpp).
#include "raw_answers.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>

#include "../labs/common/raw_data.hpp"
#include "../labs/common/transpose_data.hpp"
#include "banklab/emulator_json.hpp"

namespace banklab::grader {

namespace {

// Lanes per bank of a compare-and-swap atomic: each lane is its own pass
// (a word shared by lanes is no help); 2 wavefronts per pass.
int cas_busiest_bank(const WarpAccess& access) {
  std::array<int, 32> per_bank{};  // sm_90: 32 banks of 4 bytes
  int busiest = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!access.active(lane)) continue;
    const auto bank = static_cast<std::size_t>((access.offsets[lane] / 4) % 32);
    busiest = std::max(busiest, ++per_bank[bank]);
  }
  return busiest;
}

std::uint64_t count_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return 0;
  const auto& v = object[key];
  return v.is_number_unsigned() ? v.get<std::uint64_t>()
         : v.is_number_integer() && v.get<long long>() > 0 ? static_cast<std::uint64_t>(v.get<long long>())
                                                           : 0;
}

}  // namespace

PricedLine price_line(const nlohmann::json& raw) {
  PricedLine out;
  if (!raw.is_object()) {
    out.unpriced_why = "a line of the runner's report is not an object";
    out.unpriced_loads = 1;
    return out;
  }
  if (raw.contains("file") && raw["file"].is_string()) out.file = raw["file"].get<std::string>();
  if (raw.contains("line") && raw["line"].is_number_integer()) out.line = raw["line"].get<int>();
  out.unpriced_loads = count_field(raw, "unrecorded_loads");
  out.unpriced_stores = count_field(raw, "unrecorded_stores");
  if (out.unpriced_loads + out.unpriced_stores > 0) {
    out.unpriced_why = "more than " + std::to_string(emu::kMaxPatternsPerLine) +
                       " different access patterns on this line; the grader prices only that many";
  }
  // One pattern's warp access; false (and counted unpriced) for one the
  // emulator cannot have made: not priced, so not passed.
  const auto access_of = [&out](const nlohmann::json& p, bool store, std::uint64_t count, WarpAccess* access) {
    try {
      std::vector<std::int64_t> offsets = p.at("offsets").get<std::vector<std::int64_t>>();
      const std::int64_t shift = p.at("shift").get<std::int64_t>();
      if (shift < 0 || shift % 128 != 0) throw AccessError("shift " + std::to_string(shift) + " is not a multiple of 128");
      for (std::int64_t& o : offsets) {
        if (o < -1) throw AccessError("offset " + std::to_string(o));
        if (o >= 0) o += shift;
      }
      *access = WarpAccess::make(p.at("width").get<int>(), store ? MemOp::kStore : MemOp::kLoad, offsets);
      return true;
    } catch (const std::exception& e) {
      (store ? out.unpriced_stores : out.unpriced_loads) += std::max<std::uint64_t>(count, 1);
      out.unpriced_why = std::string("a malformed access pattern in the runner's report (") + e.what() + ")";
      return false;
    }
  };
  const auto context_of = [](const nlohmann::json& p) {
    return p.is_object() && p.contains("first") && p["first"].is_string() ? p["first"].get<std::string>() : "";
  };
  if (raw.contains("joined_patterns") && raw["joined_patterns"].is_array()) {
    int worst_excess = 0;
    for (const auto& p : raw["joined_patterns"]) {
      const std::uint64_t count = count_field(p, "count");
      const bool store = p.is_object() && p.contains("op") && p["op"] == "st";
      WarpAccess access;
      if (!access_of(p, store, count, &access)) continue;
      const WavefrontCount cost = count_wavefronts(access);
      out.turns_wavefronts += static_cast<std::uint64_t>(cost.wavefronts) * count;
      out.turns_ideal += static_cast<std::uint64_t>(cost.ideal_wavefronts) * count;
      if (count > 0 && cost.wavefronts - cost.ideal_wavefronts > worst_excess) {
        worst_excess = cost.wavefronts - cost.ideal_wavefronts;
        out.turns_access = access;
        out.turns_context = context_of(p);
      }
    }
  }
  if (!raw.contains("patterns") || !raw["patterns"].is_array()) return out;
  for (const auto& p : raw["patterns"]) {
    const std::uint64_t count = count_field(p, "count");
    const bool store = p.is_object() && p.contains("op") && p["op"] == "st";
    WarpAccess access;
    if (!access_of(p, store, count, &access)) continue;
    const std::string atomic = p.contains("atomic") && p["atomic"].is_string() ? p["atomic"].get<std::string>() : "";
    WavefrontCount cost = count_wavefronts(atomic == "async-copy" ? lanes_unmerged(access) : access);
    std::uint64_t instructions = 1;
    if (atomic == "cas" || atomic == "cas-loop") {
      const int busiest = cas_busiest_bank(access);
      cost.ideal_wavefronts = 2;
      cost.wavefronts = 2 * busiest;
      if (atomic == "cas-loop") instructions = static_cast<std::uint64_t>(busiest);
    }
    std::uint64_t lanes = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) lanes += access.active(lane) ? 1 : 0;
    (store ? out.stores : out.loads) += lanes * count;
    out.warp_instructions += instructions * count;
    out.wavefronts += static_cast<std::uint64_t>(cost.wavefronts) * count;
    out.ideal_wavefronts += static_cast<std::uint64_t>(cost.ideal_wavefronts) * count;
    if (store) {
      out.store_wavefronts += static_cast<std::uint64_t>(cost.wavefronts) * count;
      out.store_instructions += instructions * count;
    }
    out.instances.push_back({store, p.contains("first") && p["first"].is_string() ? p["first"].get<std::string>() : "",
                             std::vector<std::int64_t>(access.offsets.begin(), access.offsets.end()), count});
    if (count > 0 && cost.wavefronts > out.worst_wavefronts) {
      out.worst_wavefronts = cost.wavefronts;
      out.worst_access = access;
      out.worst_context = p.contains("first") && p["first"].is_string() ? p["first"].get<std::string>() : "";
    }
  }
  return out;
}

nlohmann::json to_json(const PricedLine& l) {
  nlohmann::json instances = nlohmann::json::array();
  for (const PricedLine::Instance& i : l.instances) {
    instances.push_back({{"op", i.store ? "st" : "ld"}, {"first", i.context}, {"offsets", i.offsets}, {"count", i.count}});
  }
  return {{"file", l.file},
          {"line", l.line},
          {"loads", l.loads},
          {"stores", l.stores},
          {"warp_instructions", l.warp_instructions},
          {"wavefronts", l.wavefronts},
          {"ideal_wavefronts", l.ideal_wavefronts},
          {"store_wavefronts", l.store_wavefronts},
          {"store_instructions", l.store_instructions},
          {"worst_wavefronts", l.worst_wavefronts},
          {"worst_access", emu::access_to_json(l.worst_access)},
          {"worst_context", l.worst_context},
          {"instances", std::move(instances)},
          {"unpriced_loads", l.unpriced_loads},
          {"unpriced_stores", l.unpriced_stores},
          {"unpriced_why", l.unpriced_why},
          {"turns_wavefronts", l.turns_wavefronts},
          {"turns_ideal", l.turns_ideal},
          {"turns_access", emu::access_to_json(l.turns_access)},
          {"turns_context", l.turns_context}};
}

void price_reports(nlohmann::json& answer) {
  if (answer.is_array()) {
    for (auto& item : answer) price_reports(item);
    return;
  }
  if (!answer.is_object()) return;
  for (auto& [key, value] : answer.items()) {
    if (key == "as_compiled") continue;  // nvcc's code as the runner's emulator priced it (checks.cpp says so)
    if (key == "lines") {
      nlohmann::json priced = nlohmann::json::array();
      if (value.is_array()) {
        for (const auto& raw : value) priced.push_back(to_json(price_line(raw)));
      }
      value = std::move(priced);
    } else {
      price_reports(value);
    }
  }
}

namespace {

void restore_outputs(nlohmann::json& json, std::vector<std::string>& outputs) {
  if (json.is_array()) {
    for (auto& item : json) restore_outputs(item, outputs);
  } else if (json.is_object()) {
    for (auto& [key, value] : json.items()) {
      if (key == "output" && value.is_number_unsigned() && value.get<std::uint64_t>() < outputs.size()) {
        value = std::move(outputs[value.get<std::uint64_t>()]);
      } else {
        restore_outputs(value, outputs);
      }
    }
  }
}

}  // namespace

nlohmann::json parse_runner_answer(const std::string& text) {
  // "output":"<base64>" becomes "output":N (the N-th string taken out). The
  // key cannot be matched inside a JSON string, where quotes are escaped.
  static const std::string key = "\"output\":\"";
  std::string rest;
  std::vector<std::string> outputs;
  std::size_t at = 0;
  for (std::size_t found = text.find(key); found != std::string::npos; found = text.find(key, at)) {
    const std::size_t begin = found + key.size();
    const std::size_t end = text.find('"', begin);
    if (end == std::string::npos) break;
    const bool base64 = std::all_of(text.begin() + static_cast<std::ptrdiff_t>(begin),
                                    text.begin() + static_cast<std::ptrdiff_t>(end), [](char c) {
                                      // ASCII ranges, not isalnum: a call per byte of megabytes of output
                                      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                             c == '+' || c == '/' || c == '=';
                                    });
    if (!base64) {  // left to the parser
      rest.append(text, at, end + 1 - at);
      at = end + 1;
      continue;
    }
    rest.append(text, at, found - at);
    rest += "\"output\":" + std::to_string(outputs.size());
    outputs.emplace_back(text, begin, end - begin);
    at = end + 1;
  }
  nlohmann::json answer;
  if (outputs.empty()) {
    answer = nlohmann::json::parse(text);
  } else {
    rest.append(text, at, std::string::npos);
    answer = nlohmann::json::parse(rest);
    restore_outputs(answer, outputs);
  }
  price_reports(answer);
  return answer;
}

bool output_bytes(const nlohmann::json& run, std::vector<unsigned char>* bytes, std::string* why) {
  if (!run.contains("output") || !run["output"].is_string()) {
    *why = "the runner returned no output for this run";
    return false;
  }
  if (!harness::base64_decode(run["output"].get_ref<const std::string&>(), bytes)) {
    *why = "the runner's output for this run is not base64";
    return false;
  }
  return true;
}

namespace {

nlohmann::json value_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

double element_value(const unsigned char* bytes, int element_bytes) {
  if (element_bytes == 8) {
    std::uint64_t b;
    std::memcpy(&b, bytes, 8);
    return harness::bits_value(b);
  }
  if (element_bytes == 2) {
    std::uint16_t b;
    std::memcpy(&b, bytes, 2);
    return harness::bits_value(b);
  }
  std::uint32_t b;
  std::memcpy(&b, bytes, 4);
  return harness::bits_value(b);
}

}  // namespace

nlohmann::json judge_output(const nlohmann::json& run, const std::vector<unsigned char>& expected, int element_bytes,
                            bool integers) {
  std::vector<unsigned char> got;
  std::string why;
  if (!output_bytes(run, &got, &why)) return {{"error", why}};
  if (got.size() != expected.size()) {
    return {{"error", "the runner returned " + std::to_string(got.size()) + " bytes of output, the grader expected " +
                          std::to_string(expected.size())}};
  }
  const auto size = static_cast<std::size_t>(element_bytes);
  long long mismatches = 0;
  nlohmann::json first = nlohmann::json::array();
  for (std::size_t i = 0; i + size <= expected.size(); i += size) {
    if (std::memcmp(&expected[i], &got[i], size) == 0) continue;
    if (first.size() < 5 && integers && size == 4) {
      std::int32_t want = 0, have = 0;
      std::memcpy(&want, &expected[i], 4);
      std::memcpy(&have, &got[i], 4);
      const bool poison = std::all_of(&got[i], &got[i] + 4, [](unsigned char b) { return b == harness::kPoisonByte; });
      first.push_back({{"index", i / size}, {"expected", want}, {"got", poison ? nlohmann::json() : nlohmann::json(have)}});
    } else if (first.size() < 5) {
      first.push_back({{"index", i / size},
                       {"expected", value_or_null(element_value(&expected[i], element_bytes))},
                       {"got", value_or_null(element_value(&got[i], element_bytes))}});
    }
    ++mismatches;
  }
  return {{"mismatches", mismatches}, {"first_mismatches", first}};
}

namespace {

template <class Bits>
nlohmann::json judge_transpose_as(harness::Shape s, const std::vector<unsigned char>& got, std::uint64_t seed) {
  const std::vector<Bits> in = harness::transpose_input<Bits>(s, seed);
  if (got.size() != in.size() * sizeof(Bits)) {
    return {{"error", "the runner returned " + std::to_string(got.size()) + " bytes of output, the grader expected " +
                          std::to_string(in.size() * sizeof(Bits))}};
  }
  std::vector<Bits> out(in.size());
  std::memcpy(out.data(), got.data(), got.size());
  const harness::Comparison c = harness::compare_transpose(s, in.data(), out.data());
  nlohmann::json first = nlohmann::json::array();
  for (const harness::Mismatch& m : c.first) {
    first.push_back({{"row", m.x}, {"col", m.y}, {"expected", value_or_null(m.expected)}, {"got", value_or_null(m.got)}});
  }
  return {{"mismatches", c.mismatches}, {"first_mismatches", first}};
}

}  // namespace

nlohmann::json judge_transpose_run(const nlohmann::json& run, std::uint64_t seed) {
  if (!run.contains("width") || !run["width"].is_number_integer() || !run.contains("height") ||
      !run["height"].is_number_integer()) {
    return {{"error", "the runner's run has no shape"}};
  }
  const harness::Shape s{run["width"].get<int>(), run["height"].get<int>()};
  if (s.width < 1 || s.height < 1 || static_cast<long long>(s.width) * s.height > (1ll << 26)) {
    return {{"error", "the runner's run has an impossible shape"}};
  }
  std::vector<unsigned char> got;
  std::string why;
  if (!output_bytes(run, &got, &why)) return {{"error", why}};
  const int element_bytes = run.value("element_bytes", 4);
  if (element_bytes == 8) return judge_transpose_as<std::uint64_t>(s, got, seed);
  if (element_bytes == 2) return judge_transpose_as<std::uint16_t>(s, got, seed);
  if (element_bytes == 4) return judge_transpose_as<std::uint32_t>(s, got, seed);
  return {{"error", "the runner's run has elements of " + std::to_string(element_bytes) + " bytes"}};
}

}  // namespace banklab::grader
