// banksim: price any warp-wide shared-memory access pattern with the bank
// model and show why, as a bank map (text or an SVG picture), JSON, or a CSV
// batch.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "banklab/access_csv.hpp"
#include "banklab/bank_json.hpp"
#include "banklab/bank_model.hpp"
#include "banklab/bank_svg.hpp"

namespace {

using banklab::AccessError;
using banklab::LaneMask;

// "all", "even", "odd", or a list of lanes and ranges: "0-15", "0,2,8-11".
LaneMask parse_lane_set(const std::string& text) {
  if (text == "all") return 0xffffffffu;
  if (text == "even") return 0x55555555u;
  if (text == "odd") return 0xaaaaaaaau;
  LaneMask mask = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    int first = -1, last = -1;
    char dash = 0;
    char extra = 0;
    const int n = std::sscanf(item.c_str(), "%d%c%d%c", &first, &dash, &last, &extra);
    if (n == 1) last = first;
    const bool ok = (n == 1 || (n == 3 && dash == '-')) && first >= 0 && last < banklab::kWarpSize && first <= last;
    if (!ok) {
      throw AccessError("--lanes: '" + item +
                        "' is not a lane (0-31) or range (like 0-15); use all, even, odd or a list like 0,2,8-11");
    }
    for (int lane = first; lane <= last; ++lane) mask |= LaneMask{1} << lane;
    pos = comma + 1;
  }
  return mask;
}

int run_batch(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw AccessError("--batch: cannot open '" + path + "'");
  const auto rows = banklab::read_access_csv(in, path);
  std::cout << "name,wavefronts,bank_conflicts\n";
  for (const auto& row : rows) {
    const auto cost = banklab::price(row.access);
    std::cout << row.name << ',' << cost.wavefronts << ',' << cost.bank_conflicts << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "banksim: how many wavefronts does one warp-wide shared-memory access cost on the GPU, and why?\n"
      "Examples:\n"
      "  banksim --width 4 --stride 32          32-way conflict: every lane in bank 0\n"
      "  banksim --width 4 --stride 33          padded column: conflict-free\n"
      "  banksim --width 8 --offsets \"0 8 16 - 32 ...\"   32 offsets, - = inactive lane\n"
      "  banksim --batch patterns.csv           rows name,width_bytes,op,lane_byte_offsets",
      "banksim"};
  int width = 4;
  std::optional<std::int64_t> stride;
  std::int64_t base = 0;
  std::string lanes = "all";
  std::string offsets_text;
  std::string op_text = "ld";
  std::string format = "text";
  std::string batch;

  auto* width_opt = app.add_option("--width", width, "bytes per lane: 1, 2, 4, 8 or 16 (default 4)");
  auto* stride_opt = app.add_option("--stride", stride, "lane l accesses base + l * stride * width bytes");
  auto* base_opt = app.add_option("--base", base, "byte offset added to every lane (with --stride)");
  auto* lanes_opt = app.add_option("--lanes", lanes, "active lanes with --stride: all, even, odd, 0-15, 0,2,8-11");
  auto* offsets_opt = app.add_option("--offsets", offsets_text, "32 byte offsets, - for an inactive lane");
  auto* op_opt = app.add_option("--op", op_text, "ld (load) or st (store), default ld")
                     ->check(CLI::IsMember({"ld", "st", "load", "store"}));
  app.add_option("--format", format,
                 "text (default), json, or svg: the bank map as an SVG picture (banks across, wavefronts down,\n"
                 "lanes in the cells, conflicts framed in red)")
      ->check(CLI::IsMember({"text", "json", "svg"}));
  auto* batch_opt = app.add_option("--batch", batch,
                                   "CSV file of rows name,width_bytes,op,lane_byte_offsets (extra columns ignored);\n"
                                   "prints CSV name,wavefronts,bank_conflicts");
  stride_opt->excludes(offsets_opt);
  base_opt->needs(stride_opt);
  lanes_opt->needs(stride_opt);
  for (auto* opt : {width_opt, stride_opt, base_opt, lanes_opt, offsets_opt, op_opt}) batch_opt->excludes(opt);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help
    std::cerr << "banksim: error: " << error.what() << " (see banksim --help)\n";
    return 2;
  }

  try {
    if (!batch.empty()) return run_batch(batch);
    banklab::WarpAccess access;
    const banklab::MemOp op = banklab::parse_mem_op(op_text);
    if (stride) {
      access = banklab::strided_access(width, op, *stride, base, parse_lane_set(lanes));
    } else if (!offsets_text.empty()) {
      access = banklab::WarpAccess::make(width, op, banklab::parse_lane_offsets(offsets_text));
    } else {
      std::cerr << "banksim: error: give --stride N or --offsets \"...\" (or --batch FILE); see banksim --help\n";
      return 2;
    }
    const auto cost = banklab::price(access);
    if (format == "json") {
      std::cout << banklab::to_json(cost).dump(2) << '\n';
    } else if (format == "svg") {
      // The title: the command that made the picture, --format left out.
      std::string title = "banksim";
      for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--format") {
          ++i;
          continue;
        }
        if (arg.rfind("--format=", 0) == 0) continue;
        title += " " + (arg.find(' ') != std::string::npos ? "\"" + arg + "\"" : arg);
      }
      std::cout << banklab::format_svg(cost, title);
    } else {
      std::cout << "offsets: " << access << '\n' << cost;
    }
    return 0;
  } catch (const AccessError& error) {
    std::cerr << "banksim: error: " << error.what() << '\n';
    return 2;
  }
}
