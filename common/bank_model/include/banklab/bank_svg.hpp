// SVG drawings of the bank model's answers: the bank map of one warp
// instruction (banksim --format svg, the handouts' figures) and the pieces
// the figures program draws tiles with.
#pragma once

#include <sstream>
#include <string>

#include "banklab/bank_model.hpp"

namespace banklab {

/// A colour per value 0..count-1, evenly around the hue circle (fixed
/// saturation and lightness, so that black text stays readable on it).
std::string svg_colour(int value, int count);

/// A small SVG writer: text and rectangles on a white page.
struct Svg {
  std::ostringstream body;
  int width = 0, height = 0;
  void text(double x, double y, const std::string& t, int size, const char* anchor = "middle", bool bold = false);
  void rect(double x, double y, double w, double h, const std::string& fill, const char* stroke = "#ffffff",
            double stroke_width = 0.5);
  [[nodiscard]] std::string str() const;
};

/// The bank map of one warp instruction: one column per bank, one row per
/// wavefront; a cell holds the lowest lane the bank serves there ('*' when
/// several lanes share the word) and is coloured by its lane group; a word a
/// bank delivers after its group's first wavefront (the cost of a conflict)
/// is framed in red. `title` goes on top, then the numbers.
std::string format_svg(const AccessCost& cost, const std::string& title);

}  // namespace banklab
