#include "banklab/bank_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace banklab {

namespace {

// Text in SVG: the characters XML reserves, escaped.
std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string svg_colour(int value, int count) {
  const double h = 360.0 * value / count, s = 0.55, l = 0.72;
  const double c = (1 - std::fabs(2 * l - 1)) * s, x = c * (1 - std::fabs(std::fmod(h / 60.0, 2) - 1)), m = l - c / 2;
  double r = 0, g = 0, b = 0;
  if (h < 60) r = c, g = x;
  else if (h < 120) r = x, g = c;
  else if (h < 180) g = c, b = x;
  else if (h < 240) g = x, b = c;
  else if (h < 300) r = x, b = c;
  else r = c, b = x;
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", static_cast<int>(std::lround((r + m) * 255)),
                static_cast<int>(std::lround((g + m) * 255)), static_cast<int>(std::lround((b + m) * 255)));
  return text;
}

void Svg::text(double x, double y, const std::string& t, int size, const char* anchor, bool bold) {
  body << "<text x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size << "\" text-anchor=\"" << anchor << "\""
       << (bold ? " font-weight=\"bold\"" : "") << ">" << escape(t) << "</text>\n";
}

void Svg::rect(double x, double y, double w, double h, const std::string& fill, const char* stroke,
               double stroke_width) {
  body << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h << "\" fill=\"" << fill
       << "\" stroke=\"" << stroke << "\" stroke-width=\"" << stroke_width << "\"/>\n";
}

std::string Svg::str() const {
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"DejaVu Sans Mono, monospace\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << body.str() << "</svg>\n";
  return out.str();
}

std::string format_svg(const AccessCost& cost, const std::string& title) {
  const WarpAccess& access = cost.access;
  const int banks = cost.arch->banks, cell = 22, left = 70, top = 60;
  Svg svg;
  svg.width = left + banks * cell + 20;
  svg.height = top + std::max(1, cost.wavefronts) * cell + 60;
  svg.text(svg.width / 2.0, 20, title, 13, "middle", true);
  std::ostringstream summary;
  summary << access.width_bytes << " bytes per lane, " << (access.op == MemOp::kLoad ? "load" : "store") << ": "
          << cost.wavefronts << (cost.wavefronts == 1 ? " wavefront" : " wavefronts") << ", ideal "
          << cost.ideal_wavefronts << ", " << cost.bank_conflicts
          << (cost.bank_conflicts == 1 ? " bank conflict" : " bank conflicts");
  svg.text(svg.width / 2.0, 38, summary.str(), 11);
  for (int b = 0; b < banks; ++b) svg.text(left + b * cell + cell / 2.0, top - 5, std::to_string(b), 9);
  svg.text(left - 8, top - 5, "bank", 9, "end");
  int row = 0;
  const int group_count = static_cast<int>(cost.groups.size());
  bool any_conflict = false;
  for (int g = 0; g < group_count; ++g) {
    const LaneGroup& group = cost.groups[g];
    for (int w = 0; w < group.wavefronts; ++w, ++row) {
      svg.text(left - 8, top + row * cell + cell * 0.68, "wf " + std::to_string(row), 9, "end");
      for (int b = 0; b < banks; ++b) {
        const double x = left + b * cell, y = top + row * cell;
        if (w >= static_cast<int>(group.bank_words[b].size())) {
          svg.rect(x, y, cell, cell, "#f2f2f2");
          continue;
        }
        const BankWord& word = group.bank_words[b][w];
        int lowest = 0;
        while (((word.lanes >> lowest) & 1u) == 0) ++lowest;
        const bool shared = (word.lanes & (word.lanes - 1)) != 0;
        svg.rect(x, y, cell, cell, svg_colour(g, std::max(4, group_count)));
        if (w > 0) {  // a second word of this bank in this group: a conflict's wavefront
          svg.rect(x + 1.5, y + 1.5, cell - 3, cell - 3, "none", "#d62728", 2.5);
          any_conflict = true;
        }
        svg.text(x + cell / 2.0, y + cell * 0.68, std::to_string(lowest) + (shared ? "*" : ""), 9);
      }
    }
  }
  std::ostringstream legend;
  legend << "colour = lane group (" << group_count << (group_count == 1 ? " group: the whole warp" : " groups")
         << "); number = lowest lane served; * = several lanes share the word; grey = bank idle"
         << (any_conflict ? "; red = a conflict" : "");
  svg.text(svg.width / 2.0, top + row * cell + 25, legend.str(), 10);
  return svg.str();
}

}  // namespace banklab
