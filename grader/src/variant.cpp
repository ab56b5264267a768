// Variants per student: the registry of stages' variant spaces and the
// derivation of a student's variant from their name (variant.hpp).
#include "variant.hpp"

#include <map>
#include <sstream>
#include <stdexcept>

#include "sha256.hpp"

namespace banklab::grader {

namespace {

std::map<int, VariantSpace>& spaces() {
  static std::map<int, VariantSpace> registered;
  return registered;
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::size_t axis_index(const VariantSpace& space, const std::string& name) {
  for (std::size_t i = 0; i < space.axes.size(); ++i) {
    if (space.axes[i].name == name) return i;
  }
  throw std::out_of_range("stage " + std::to_string(space.lab) + " has no variant parameter '" + name + "'");
}

}  // namespace

bool register_variant_space(int lab, VariantSpaceFactory factory) {
  VariantSpace space = factory();
  space.lab = lab;
  spaces()[lab] = std::move(space);
  return true;
}

const VariantSpace* variant_space_for(int lab) {
  const auto found = spaces().find(lab);
  return found == spaces().end() ? nullptr : &found->second;
}

std::vector<int> stages_with_variants() {
  std::vector<int> labs;
  for (const auto& [lab, space] : spaces()) labs.push_back(lab);
  return labs;
}

Variant derive_variant(const VariantSpace& space, const std::string& from, const std::string& salt) {
  const std::string name = trimmed(from);
  if (name.empty()) throw std::invalid_argument("--variant-from: give the student's name or id (it is empty)");
  Variant variant;
  variant.from = name;
  // The salt and the name are length-prefixed, so ("ab", "c") and ("a",
  // "bc") are different inputs. Each axis takes its own 64-bit word; past
  // four axes the digest is taken again with a block number.
  for (std::size_t i = 0; i < space.axes.size(); ++i) {
    const std::size_t block = i / 4;
    const std::string digest = sha256_hex("banklab variant\n" + std::to_string(space.lab) + "\n" +
                                          std::to_string(block) + "\n" + std::to_string(salt.size()) + ":" + salt +
                                          "\n" + std::to_string(name.size()) + ":" + name);
    const std::uint64_t word = std::stoull(digest.substr(16 * (i % 4), 16), nullptr, 16);
    // A 64-bit word modulo a handful of values: the bias is below 2^-60.
    variant.values.push_back(space.axes[i].values.at(word % space.axes[i].values.size()));
  }
  return variant;
}

int variant_value(const VariantSpace& space, const Variant& variant, const std::string& name) {
  const std::size_t i = axis_index(space, name);
  return variant.active() ? variant.values.at(i) : space.axes[i].values.at(0);
}

std::vector<std::string> variant_defines(const VariantSpace& space, const Variant& variant) {
  std::vector<std::string> defines;
  if (!variant.active()) return defines;
  for (std::size_t i = 0; i < space.axes.size(); ++i) {
    defines.push_back("-D" + space.axes[i].macro + "=" + std::to_string(variant.values.at(i)));
  }
  return defines;
}

std::string variant_text(const VariantSpace& space, const Variant& variant) {
  std::string text;
  if (!variant.active()) return text;
  for (std::size_t i = 0; i < space.axes.size(); ++i) {
    text += (text.empty() ? "" : " ") + space.axes[i].name + "=" + std::to_string(variant.values.at(i));
  }
  return text;
}

nlohmann::json variant_json(const VariantSpace& space, const Variant& variant) {
  if (!variant.active()) return nullptr;
  nlohmann::json j = {{"from", variant.from}};
  for (std::size_t i = 0; i < space.axes.size(); ++i) j[space.axes[i].name] = variant.values.at(i);
  return j;
}

std::string describe_variant(const VariantSpace& space, const Variant& variant) {
  std::ostringstream out;
  out << "stage " << space.lab << ", the variant of " << variant.from << ":\n";
  for (std::size_t i = 0; i < space.axes.size(); ++i) {
    const VariantAxis& axis = space.axes[i];
    out << "  " << axis.name << " = " << variant_value(space, variant, axis.name) << "  (" << axis.macro
        << "): " << axis.meaning << "\n";
  }
  return out.str();
}

}  // namespace banklab::grader
