// What the transpose runners (stages 2 and 3) share, CPU and GPU alike
// (C++17, no dependencies so that nvcc compiles it too): the data and its
// comparison (transpose_data.hpp) and the JSON they answer with.
#pragma once

#include <string>

#include "json_writer.hpp"
#include "raw_data.hpp"
#include "transpose_data.hpp"

namespace harness {

/// Writes "mismatches" and "first_mismatches" ([{index, expected, got}]);
/// `describe` may add fields to each mismatch (where in the output it is).
template <class Describe>
void write_float_comparison(Json& j, const FloatComparison& c, Describe describe) {
  j.key("mismatches").value(static_cast<long long>(c.mismatches)).key("first_mismatches").open('[');
  for (const FloatMismatch& m : c.first) {
    j.open('{').key("index").value(static_cast<long long>(m.index));
    j.key("expected").value(static_cast<double>(m.expected)).key("got").value(static_cast<double>(m.got));
    describe(j, m.index);
    j.close('}');
  }
  j.close(']');
}
inline void write_float_comparison(Json& j, const FloatComparison& c) {
  write_float_comparison(j, c, [](Json&, std::size_t) {});
}

inline void write_comparison(Json& j, Shape s, const Comparison& c) {
  j.key("width").value(static_cast<long long>(s.width));
  j.key("height").value(static_cast<long long>(s.height));
  j.key("mismatches").value(static_cast<long long>(c.mismatches));
  j.key("first_mismatches").open('[');
  for (const Mismatch& m : c.first) {
    j.open('{');
    j.key("row").value(static_cast<long long>(m.x));
    j.key("col").value(static_cast<long long>(m.y));
    j.key("expected").value(static_cast<double>(m.expected));
    j.key("got").value(static_cast<double>(m.got));
    j.close('}');
  }
  j.close(']');
}

}  // namespace harness
