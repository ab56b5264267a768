// banklab_figures: writes the handouts' figures (SVG) into a folder, every
// colour and number computed by the bank model, so that a figure cannot
// disagree with banksim or the grader:
//   banklab_figures OUT_DIR          (handouts/figures is the committed copy)
// tests/handouts regenerates them and compares with the committed files.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "banklab/bank_model.hpp"

namespace {

using banklab::AccessCost;
using banklab::MemOp;
using banklab::WarpAccess;

// A colour per value 0..count-1, evenly around the hue circle (fixed
// saturation and lightness, so that text stays readable on every cell).
std::string colour(int value, int count) {
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

struct Svg {
  std::ostringstream body;
  int width = 0, height = 0;
  void text(double x, double y, const std::string& t, int size, const char* anchor = "middle", bool bold = false) {
    body << "<text x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size << "\" text-anchor=\"" << anchor << "\""
         << (bold ? " font-weight=\"bold\"" : "") << ">" << t << "</text>\n";
  }
  void rect(double x, double y, double w, double h, const std::string& fill, const char* stroke = "#ffffff",
            double stroke_width = 0.5) {
    body << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h << "\" fill=\"" << fill
         << "\" stroke=\"" << stroke << "\" stroke-width=\"" << stroke_width << "\"/>\n";
  }
  std::string str() const {
    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
        << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"DejaVu Sans Mono, monospace\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        << body.str() << "</svg>\n";
    return out.str();
  }
};

// One panel: a rows x cols tile in logical coordinates, each cell coloured by
// `value(row, col)` (a bank, or a group of banks) and labelled with it;
// logical column `outline` (the one a warp reads together) framed in black.
void tile_panel(Svg& svg, double x0, double y0, const std::string& title, int rows, int cols, int values,
                const std::function<int(int, int)>& value, int outline, int cell) {
  svg.text(x0 + cols * cell / 2.0, y0 - 22, title, 13, "middle", true);
  for (int c = 0; c < cols; ++c) svg.text(x0 + c * cell + cell / 2.0, y0 - 5, std::to_string(c), 8);
  for (int r = 0; r < rows; ++r) {
    svg.text(x0 - 4, y0 + r * cell + cell * 0.7, std::to_string(r), 8, "end");
    for (int c = 0; c < cols; ++c) {
      const int v = value(r, c);
      svg.rect(x0 + c * cell, y0 + r * cell, cell, cell, colour(v, values));
      svg.text(x0 + c * cell + cell / 2.0, y0 + r * cell + cell * 0.7, std::to_string(v), 8);
    }
  }
  svg.body << "<rect x=\"" << x0 + outline * cell << "\" y=\"" << y0 << "\" width=\"" << cell << "\" height=\""
           << rows * cell << "\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2\"/>\n";
}

// The bank of element (row, col) of a float tile whose rows are `pitch`
// floats long, stored at column map(row, col): from the bank model's rule.
int bank_of(int row, int col, int pitch, const std::function<int(int, int)>& map) {
  const std::int64_t offset = 4LL * (static_cast<std::int64_t>(row) * pitch + map(row, col));
  return static_cast<int>((offset / banklab::kHopper.bank_width_bytes) % banklab::kHopper.banks);
}

std::string tile_figure(const std::string& left_title, const std::function<int(int, int)>& left,
                        const std::string& right_title, const std::function<int(int, int)>& right, int rows, int cols,
                        int values, const std::string& caption) {
  const int cell = 16, margin = 40, gap = 50;
  Svg svg;
  svg.width = 2 * margin + 2 * cols * cell + gap;
  svg.height = margin + rows * cell + 50;
  tile_panel(svg, margin, margin, left_title, rows, cols, values, left, 0, cell);
  tile_panel(svg, margin + cols * cell + gap, margin, right_title, rows, cols, values, right, 0, cell);
  svg.text(svg.width / 2.0, margin + rows * cell + 30, caption, 11);
  return svg.str();
}

// The bank map of one access as a grid: one row per wavefront, one column per
// bank; a cell holds the lowest lane the bank serves in that wavefront
// (a '*' after it when several lanes share the word) and is coloured by the
// lane group it belongs to. The groups are the bank model's.
std::string access_figure(const std::string& title, const WarpAccess& access) {
  const AccessCost cost = banklab::price(access);
  const int banks = banklab::kHopper.banks, cell = 22, left = 70, top = 60;
  Svg svg;
  svg.width = left + banks * cell + 20;
  svg.height = top + std::max(1, cost.wavefronts) * cell + 60;
  svg.text(svg.width / 2.0, 20, title, 13, "middle", true);
  std::ostringstream summary;
  summary << access.width_bytes << " bytes per lane, " << (access.op == MemOp::kLoad ? "load" : "store") << ": "
          << cost.wavefronts << " wavefronts, ideal " << cost.ideal_wavefronts << ", " << cost.bank_conflicts
          << " bank conflicts";
  svg.text(svg.width / 2.0, 38, summary.str(), 11);
  for (int b = 0; b < banks; ++b) svg.text(left + b * cell + cell / 2.0, top - 5, std::to_string(b), 9);
  svg.text(left - 8, top - 5, "bank", 9, "end");
  int row = 0;
  const int group_count = static_cast<int>(cost.groups.size());
  for (int g = 0; g < group_count; ++g) {
    const banklab::LaneGroup& group = cost.groups[g];
    for (int w = 0; w < group.wavefronts; ++w, ++row) {
      svg.text(left - 8, top + row * cell + cell * 0.68, "wf " + std::to_string(row), 9, "end");
      for (int b = 0; b < banks; ++b) {
        const double x = left + b * cell, y = top + row * cell;
        if (w >= static_cast<int>(group.bank_words[b].size())) {
          svg.rect(x, y, cell, cell, "#f2f2f2");
          continue;
        }
        const banklab::BankWord& word = group.bank_words[b][w];
        int lowest = 0;
        while (((word.lanes >> lowest) & 1u) == 0) ++lowest;
        const bool shared = (word.lanes & (word.lanes - 1)) != 0;
        svg.rect(x, y, cell, cell, colour(g, std::max(4, group_count)));
        svg.text(x + cell / 2.0, y + cell * 0.68, std::to_string(lowest) + (shared ? "*" : ""), 9);
      }
    }
  }
  std::ostringstream legend;
  legend << "colour = lane group (" << group_count << (group_count == 1 ? " group: the whole warp" : " groups")
         << "); number = lowest lane served; * = several lanes share the word; grey = bank idle";
  svg.text(svg.width / 2.0, top + row * cell + 25, legend.str(), 10);
  return svg.str();
}

WarpAccess strided(int width, std::int64_t stride) {
  return banklab::strided_access(width, MemOp::kLoad, stride);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    std::cerr << "usage: banklab_figures OUT_DIR   (writes the handouts' SVG figures there)\n";
    return argc == 2 ? 0 : 2;
  }
  const std::filesystem::path out = argv[1];
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error) {
    std::cerr << "banklab_figures: cannot create " << out << ": " << error.message() << "\n";
    return 2;
  }
  const auto plain = [](int, int c) { return c; };
  const auto xor_map = [](int r, int c) { return c ^ r; };
  const std::vector<std::pair<std::string, std::string>> figures = {
      {"03-tile-banks.svg",
       tile_figure(
           "float tile[32][32]: bank of each element", [&](int r, int c) { return bank_of(r, c, 32, plain); },
           "float tile[32][33]: the same elements, padded", [&](int r, int c) { return bank_of(r, c, 33, plain); },
           32, 32, 32,
           "The column read (framed: column 0; lane l reads row l). Left: all in bank 0, 32-way. Right: banks 0-31.")},
      {"03-column-32.svg",
       access_figure("float tile[32][32], a column (banksim --width 4 --stride 32)", strided(4, 32))},
      {"03-column-33.svg",
       access_figure("float tile[32][33], a column (banksim --width 4 --stride 33)", strided(4, 33))},
      {"04-tile-banks.svg",
       tile_figure(
           "tile[row][col]: bank of each logical element", [&](int r, int c) { return bank_of(r, c, 32, plain); },
           "tile[row][col ^ row]: the same elements, swizzled",
           [&](int r, int c) { return bank_of(r, c, 32, xor_map); }, 32, 32, 32,
           "A warp reads a logical column (framed: column 0). Left: one bank, 32-way. Right: 32 banks, 1 wavefront.")},
      {"04-chunk-banks.svg",
       tile_figure(
           "float4 tile[32][8]: banks 4k..4k+3 of chunk k", [](int, int k) { return k; },
           "chunk ^ (row % 8): the same chunks, swizzled", [](int r, int k) { return k ^ (r % 8); }, 32, 8, 8,
           "Cell = which 4 banks (0 = banks 0-3, ..., 7 = banks 28-31) hold the chunk. Framed: chunk column 0.")},
      {"05-groups-double.svg",
       access_figure("double, lane l reads element l (banksim --width 8 --stride 1)", strided(8, 1))},
      {"05-groups-float4.svg",
       access_figure("float4, lane l reads element l (banksim --width 16 --stride 1)", strided(16, 1))},
      {"05-double-column-33.svg",
       access_figure("double tile[32][33], a column (banksim --width 8 --stride 33)", strided(8, 33))},
      {"05-double-column-34.svg",
       access_figure("double tile[32][34], a column (banksim --width 8 --stride 34)", strided(8, 34))},
  };
  for (const auto& [name, svg] : figures) {
    std::ofstream file(out / name);
    file << svg;
    if (!file) {
      std::cerr << "banklab_figures: cannot write " << (out / name) << "\n";
      return 2;
    }
  }
  std::cout << "wrote " << figures.size() << " figures to " << out.string() << "\n";
  return 0;
}
