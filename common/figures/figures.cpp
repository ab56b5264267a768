// banklab_figures: writes the handouts' figures (SVG) into a folder, every
// colour and number computed by the bank model, so that a figure cannot
// disagree with banksim or the grader:
//   banklab_figures OUT_DIR          (handouts/figures is the committed copy)
// tests/handouts regenerates them and compares with the committed files.
#include <algorithm>
#include <array>
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
#include "banklab/bank_svg.hpp"

namespace {

using banklab::AccessCost;
using banklab::MemOp;
using banklab::WarpAccess;
using banklab::Svg;
const auto colour = banklab::svg_colour;

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
  // Narrow panels get a wider gap and a wider picture, so that the titles
  // and the caption fit.
  const int cell = 16, margin = 40, gap = std::max(50, 250 - cols * cell);
  Svg svg;
  svg.width = std::max(2 * margin + 2 * cols * cell + gap, 560);
  svg.height = margin + rows * cell + 50;
  const double x0 = (svg.width - (2 * cols * cell + gap)) / 2.0;
  tile_panel(svg, x0, margin, left_title, rows, cols, values, left, 0, cell);
  tile_panel(svg, x0 + cols * cell + gap, margin, right_title, rows, cols, values, right, 0, cell);
  svg.text(svg.width / 2.0, margin + rows * cell + 30, caption, 11);
  return svg.str();
}

// The same two panels one above the other, in smaller cells: for a tile too
// wide to show twice side by side (64 columns of 2-byte elements).
std::string stacked_tile_figure(const std::string& top_title, const std::function<int(int, int)>& top,
                                const std::string& bottom_title, const std::function<int(int, int)>& bottom,
                                int rows, int cols, int values, const std::string& caption) {
  const int cell = 11, margin = 40, gap = 50;
  Svg svg;
  svg.width = 2 * margin + cols * cell;
  svg.height = 2 * margin + 2 * rows * cell + gap + 20;
  tile_panel(svg, margin, margin, top_title, rows, cols, values, top, 0, cell);
  tile_panel(svg, margin, margin + rows * cell + gap, bottom_title, rows, cols, values, bottom, 0, cell);
  svg.text(svg.width / 2.0, margin + 2 * rows * cell + gap + 30, caption, 11);
  return svg.str();
}

// The bank of element (row, col) of a tile of `bytes`-byte elements whose
// rows are `pitch` elements long, stored at column map(row, col).
int bank_of_element(int row, int col, int pitch, int bytes, const std::function<int(int, int)>& map) {
  const std::int64_t offset = static_cast<std::int64_t>(bytes) * (static_cast<std::int64_t>(row) * pitch + map(row, col));
  return static_cast<int>((offset / banklab::kHopper.bank_width_bytes) % banklab::kHopper.banks);
}

// Where bytes live: `rounds` rows of 32 words, one column per bank; a cell
// shows the byte offset its word starts at and is coloured by its bank (the
// bank model's rule, so every column is one colour).
std::string address_figure(int rounds) {
  const int banks = banklab::kHopper.banks, width = banklab::kHopper.bank_width_bytes;
  const int cell = 24, left = 70, top = 50;
  Svg svg;
  svg.width = left + banks * cell + 20;
  svg.height = top + rounds * cell + 40;
  svg.text(svg.width / 2.0, 20, "byte offset of each 4-byte word, one column per bank", 13, "middle", true);
  for (int b = 0; b < banks; ++b) svg.text(left + b * cell + cell / 2.0, top - 5, std::to_string(b), 9);
  svg.text(left - 8, top - 5, "bank", 9, "end");
  for (int r = 0; r < rounds; ++r) {
    svg.text(left - 8, top + r * cell + cell * 0.68, "round " + std::to_string(r), 9, "end");
    for (int c = 0; c < banks; ++c) {
      const int offset = (r * banks + c) * width;
      const int bank = bank_of(r, c, banks, [](int, int col) { return col; });
      svg.rect(left + c * cell, top + r * cell, cell, cell, colour(bank, banks));
      svg.text(left + c * cell + cell / 2.0, top + r * cell + cell * 0.65, std::to_string(offset), 8);
    }
  }
  svg.text(svg.width / 2.0, top + rounds * cell + 25,
           "bank = (byte offset / 4) mod 32: the map repeats every 128 bytes; bank b holds every 32nd word", 10);
  return svg.str();
}

// The bank map of one access, as banksim --format svg draws it.
std::string access_figure(const std::string& title, const WarpAccess& access) {
  return banklab::format_svg(banklab::price(access), title);
}

WarpAccess strided(int width, std::int64_t stride) {
  return banklab::strided_access(width, MemOp::kLoad, stride);
}

// A warp storing two rows of a float tile whose rows are `pitch` floats long:
// lanes 0-15 columns 0-15 of row 0, lanes 16-31 those of row 1.
WarpAccess row_pair_store(int pitch) {
  std::array<std::int64_t, banklab::kWarpSize> offsets{};
  for (int l = 0; l < banklab::kWarpSize; ++l) offsets[l] = 4LL * (pitch * (l / 16) + l % 16);
  return WarpAccess::make(4, MemOp::kStore, offsets);
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
  // The worked examples of the handouts, never a task's own layout: stage
  // 3's tile of 16-float rows, stage 4's 2-byte tile (map c ^ (r << 1)) and
  // 8-byte chunks of 64-byte rows, stage 5's strided wide accesses and 8-column double tile,
  // stage 6's tile of 16-float rows again (padded: a warp's row-pair store; swizzled: map c ^ (r >> 1)).
  const auto half_xor = [](int r, int c) { return c ^ (r << 1); };
  const auto pair_xor = [](int r, int c) { return c ^ (r >> 1); };
  const std::vector<std::pair<std::string, std::string>> figures = {
      {"01-address-banks.svg", address_figure(4)},
      {"02-stride-2.svg", access_figure("stride 2: lane l reads word 2l (banksim --width 4 --stride 2)", strided(4, 2))},
      {"02-broadcast.svg",
       access_figure("stride 0: every lane reads word 0 (banksim --width 4 --stride 0)", strided(4, 0))},
      {"03-tile-banks.svg",
       tile_figure(
           "float m[32][16]: banks", [&](int r, int c) { return bank_of(r, c, 16, plain); },
           "float m[32][17]: padded", [&](int r, int c) { return bank_of(r, c, 17, plain); },
           32, 16, 32, "Framed: column 0, lane l reads row l. Left: banks 0 and 16, 16-way. Right: banks 0-31.")},
      {"03-column-16.svg",
       access_figure("float m[32][16], a column (banksim --width 4 --stride 16)", strided(4, 16))},
      {"03-column-17.svg",
       access_figure("float m[32][17], a column (banksim --width 4 --stride 17)", strided(4, 17))},
      {"04-tile-banks.svg",
       stacked_tile_figure(
           "unsigned short t[32][64]: bank of each logical element",
           [&](int r, int c) { return bank_of_element(r, c, 64, 2, plain); },
           "t[row][col ^ (row << 1)]: the same elements, swizzled",
           [&](int r, int c) { return bank_of_element(r, c, 64, 2, half_xor); }, 32, 64, 32,
           "A warp reads a logical column (framed: column 0). Top: one bank, 32-way. Bottom: 32 banks, 1 wavefront.")},
      {"04-chunk-banks.svg",
       tile_figure(
           "float2 t[32][8]: bank pairs", [](int r, int k) { return 8 * (r % 2) + k; },
           "swizzled: k ^ ((row >> 1) % 8)", [](int r, int k) { return 8 * (r % 2) + (k ^ ((r >> 1) % 8)); },
           32, 8, 16,
           "Cell: bank pair p (banks 2p, 2p+1) of the chunk. Framed: chunk column 0.")},
      {"05-groups-double.svg",
       access_figure("double, lane l reads element 3l (banksim --width 8 --stride 3)", strided(8, 3))},
      {"05-groups-float4.svg",
       access_figure("float4, lane l reads element 3l (banksim --width 16 --stride 3)", strided(16, 3))},
      {"05-double-column-9.svg",
       access_figure("double t[32][9], a column (banksim --width 8 --stride 9)", strided(8, 9))},
      {"05-double-column-10.svg",
       access_figure("double t[32][10], a column (banksim --width 8 --stride 10)", strided(8, 10))},
      {"06-padded-store.svg",
       access_figure("float m[32][17]: one warp stores rows 0 and 1 (lanes 0-15, 16-31)", row_pair_store(17))},
      {"06-swizzled-tile.svg",
       tile_figure(
           "float m[32][16]: banks", [&](int r, int c) { return bank_of(r, c, 16, plain); },
           "m[r][c ^ (r >> 1)]: swizzled", [&](int r, int c) { return bank_of(r, c, 16, pair_xor); },
           32, 16, 32, "Framed: column 0, lane l reads row l. Left: banks 0 and 16, 16-way. Right: banks 0-31.")},
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
