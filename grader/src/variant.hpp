// Variants per student: a stage's table of parameters (its variant space),
// the one variant a student's name or id derives from it, and how the lab
// file (-D macros), the runners (command-line values) and the rubric see it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace banklab::grader {

/// One parameter of a stage that may differ between students. values[0] is
/// the stage as it is without variants (the skeleton's default), so a grader
/// run without --variant-from grades exactly what it graded before.
struct VariantAxis {
  std::string name;     ///< "block_rows": the key in gradebooks and JSON reports
  std::string macro;    ///< "BANKLAB_BLOCK_ROWS": what the lab file is compiled with
  std::vector<int> values;
  std::string meaning;  ///< "rows of threads per block: block (32, R)" (R: the value)
};

/// A stage's variant space: the axes, each chosen independently.
struct VariantSpace {
  int lab = 0;
  std::vector<VariantAxis> axes;
};

/// One student's parameters: a value per axis of the space (empty: no
/// variant asked for, the stage as it is).
struct Variant {
  std::string from;         ///< the name or id it was derived from
  std::vector<int> values;  ///< in the order of the space's axes

  [[nodiscard]] bool active() const { return !values.empty(); }
};

/// Makes a stage's variant space (grader/labs/labNN/rubric.cpp).
using VariantSpaceFactory = VariantSpace (*)();

/// Records the variant space of a stage; returns true.
bool register_variant_space(int lab, VariantSpaceFactory factory);

/// The variant space of a stage, or nullptr when the stage has no variants.
const VariantSpace* variant_space_for(int lab);

/// The stages that have variants, in order.
std::vector<int> stages_with_variants();

/// The variant of `from` (a student's name or id, spaces around it ignored)
/// in `space`: axis i takes value number (d_i mod n_i), d_i the i-th 64-bit
/// word of SHA-256("banklab variant", lab, salt, from). Deterministic; without
/// the salt a student cannot compute a classmate's variant. Throws
/// std::invalid_argument for an empty name.
Variant derive_variant(const VariantSpace& space, const std::string& from, const std::string& salt);

/// The value of axis `name` in `variant`, or the stage's own (values[0])
/// when no variant is active. Throws std::out_of_range for an unknown axis.
int variant_value(const VariantSpace& space, const Variant& variant, const std::string& name);

/// "-DBANKLAB_BLOCK_ROWS=4", one per axis (none when no variant is active).
std::vector<std::string> variant_defines(const VariantSpace& space, const Variant& variant);

/// "block_rows=4 p1_row=48 p2_row=34" ("" when no variant is active).
std::string variant_text(const VariantSpace& space, const Variant& variant);

/// {"from": NAME, "block_rows": 4, ...} (null when no variant is active).
nlohmann::json variant_json(const VariantSpace& space, const Variant& variant);

/// What --show-variant prints: each axis, its value, its meaning and the
/// macro the lab file sees it as.
std::string describe_variant(const VariantSpace& space, const Variant& variant);

}  // namespace banklab::grader
