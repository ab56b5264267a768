// The hint ladders, by stage and by the words of a check's name. They teach
// the method (which words, which banks, which gcd) and point at the tools;
// the answers stay with the student.
#include "hints.hpp"

namespace banklab::grader {

namespace {

struct Ladder {
  int lab;            ///< 0: any stage
  const char* match;  ///< the start of the check's name (its task)
  std::vector<std::string> steps;
};

const std::vector<Ladder>& ladders() {
  static const std::vector<Ladder> all = {
      {1, "word_of",
       {"A word is 4 bytes of shared memory: in which word are bytes 0, 3, 4 and 7?",
        "The word of a byte offset is the offset divided by the word size, in whole numbers.",
        "Write word_of with integer division by 4, and test it on the offsets the check printed."}},
      {1, "bank_of",
       {"Banks repeat every 32 words, that is every 128 bytes.",
        "A word's bank is the word number modulo the number of banks.",
        "Build bank_of on word_of; the check lists the offsets where yours differs."}},
      {1, "puzzle",
       {"Each puzzle names the cost it wants; the 32 byte offsets you give decide it.",
        "A warp instruction costs the most different words any one bank must deliver; lanes on one word share it.",
        "Try your offsets with banksim --width 4 --offsets \"...\" (32 offsets, - for an inactive lane) until it "
        "prints the wanted wavefronts."}},
      {2, "conflict_degree",
       {"Work out stride 1, stride 2 and stride 32 on a full warp by hand first, then stride 0.",
        "With g = gcd(stride, 32), lanes l and l + 32 / g land in the same bank.",
        "With only lanes 0 to n - 1 active, count the lanes in the fullest bank; stride 0 is one word for every "
        "lane. The check prints the banksim command of each case it got wrong."}},
      {2, "row_sums",
       {"The lanes of the sum walk down a column of the block's rows: how many words apart are they?",
        "At row pitch p the lanes are p words apart, so gcd(p, 32) lanes share each bank.",
        "Pick a row pitch whose gcd with 32 is 1, inside the shared-memory bound the check names."}},
      {2, "neighbour_distances",
       {"Find which line conflicts in the check's output: the field reads, or the stores that stage the particles.",
        "A field of a structure of F floats is F words from the same field of the next particle; the staging "
        "stores have a pattern of their own (the 'why:' line works it out).",
        "Choose a layout in which both the field reads and the staging stores of one warp fall in 32 different "
        "banks, and price each with banksim --offsets before grading."}},
      {2, "transpose16",
       {"In a 16x16 block a warp is two rows of threads (lanes 0-15 and 16-31).",
        "Work out the word of every lane for the tile write and for the tile read, both half-warps together.",
        "Find a place for element (r, c) such that each of the two instructions puts its 32 lanes in 32 different "
        "banks; check both with banksim --offsets."}},
      {3, "tile",
       {"Which of the two tile accesses walks down a column?",
        "A column of float tile[32][W] is W words per row apart: gcd(W, 32) lanes share a bank.",
        "Give the tile's rows a length whose gcd with 32 is 1, within the bound of the shared-memory check."}},
      {3, "transpose of",
       {"Look at the first wrong elements the check prints: which rows and columns are they in?",
        "The read from global uses (x, y) of the input, the write to global the swapped block and thread indices.",
        "Guard each global access with its own bounds test, and keep __syncthreads() outside the ifs."}},
      {4, "swizzle_chunk",
       {"A float4 column read is served a quarter-warp (8 lanes) at a time: 8 chunks of 16 bytes.",
        "The 8 chunks one quarter-warp reads must be in 8 different chunk positions of their rows.",
        "XOR the chunk index with a value in 0-7 that differs for each of the 8 rows a quarter-warp reads."}},
      {4, "swizzle",
       {"The map must keep every element in its row and must not send two columns to one place.",
        "XOR with a fixed value in 0-31 permutes 0-31; which value makes a logical column visit every bank?",
        "XOR the column with something that changes from row to row and stays in 0-31."}},
      {4, "transpose_swizzled",
       {"The write and the read must use the same map, or the data comes back in the wrong place.",
        "Put the map in one function and call it for both accesses.",
        "Check the map's own checks first: they say which property fails."}},
      {4, "chunk_transpose",
       {"The write and the read must use the same chunk map.",
        "Price one quarter-warp of the column-chunk read with banksim --width 16 --offsets.",
        "Check swizzle_chunk's own checks first: they say which property fails."}},
      {5, "poly_eval",
       {"At each step, which coefficient does every lane need?",
        "Lanes that read the same word share it: how many copies of the table does the warp need?",
        "Keep the coefficients once in shared memory and let every lane read the same entry."}},
      {5, "transpose_double",
       {"An 8-byte access is served a half-warp at a time, and each lane covers two banks.",
        "In double tile[32][W] a column's lanes are 2 W words apart: work out the banks of one half-warp.",
        "Find the smallest W whose half-warp column covers all 32 banks once; banksim --width 8 --stride W "
        "prices it."}},
      {5, "transpose_half",
       {"Two halves share a word, and different bytes of one word are free.",
        "In half tile[64][W] a column's lanes are W / 2 words apart (W halves): which W gives an odd number of "
        "words?",
        "Try the candidates with banksim --width 2 --stride W and keep the smallest at its ideal."}},
      {5, "sum_quads",
       {"A float4 access is served a quarter-warp at a time: its ideal is 4 wavefronts per warp instruction.",
        "Within a quarter-warp, the 8 lanes' 16-byte pieces must cover different banks.",
        "Price your access with banksim --width 16 --offsets and compare it with the ideal."}},
      {6, "reduce_sum",
       {"Run banklab run labs/06-capstone/programs/reduce.cu: which line of the tree has an excess, and at which "
        "step is its worst warp instruction?",
        "At step `stride` the active lanes are 2 * stride words apart: gcd(2 * stride, 32) lanes share a bank.",
        "Keep the active lanes next to each other at every step: let thread tid add the word `stride` above its "
        "own, for tid below stride."}},
      {6, "scan_segments",
       {"Run banklab run labs/06-capstone/programs/scan.cu and list the lines with an excess: the loads, the two "
        "sweeps and the stores.",
        "In the sweeps the active lanes are 2^k elements apart; in the loads each thread takes two consecutive "
        "elements (lanes 2 words apart).",
        "Spread the elements over the banks (padding or an XOR swizzle: price each sweep step with banksim "
        "--offsets), and let consecutive threads load consecutive elements."}},
      {6, "gemm_tiled",
       {"Run banklab run labs/06-capstone/programs/gemm.cu: which tile access has the excess, the store or the "
        "inner loop's reads?",
        "Storing A transposed, lane x writes a_tile[x][r]: a column of 32-float rows, one bank for the warp.",
        "Pad the tile's rows, or keep A untransposed and read a_tile[row][kk] (one word for the warp); price "
        "both accesses again."}},
      {6, "histogram32",
       {"Run banklab run labs/06-capstone/programs/histogram.cu: the counting line and the merge.",
        "hist[bin][warp] puts a warp's counters 8 words apart: only 4 banks for 32 bins.",
        "Give each warp its 32 counters as 32 consecutive words (one per bank), or make the row length odd; "
        "the merge's reads must walk a row too."}},
      {6, "stencil_cross",
       {"Run banklab run labs/06-capstone/programs/stencil.cu: which tile accesses have an excess?",
        "A warp is one row of outputs, threadIdx.x = 0..31; in tile[x][y] those lanes are 12 words apart "
        "(gcd(12, 32) = 4).",
        "Store the tile row-major, tile[y][x], so that a warp reads along a row; check the load of the halo "
        "too."}},
      {6, "diagnosis",
       {"Run each kernel's program under banklab run: every line of original.cu whose excess is above 0 gets a "
        "row.",
        "`worst` is the line's \"worst\" column: the wavefronts of its worst warp instruction, which for 4-byte "
        "accesses is its conflict degree.",
        "For the cause, write down the worst instruction's lane addresses: a 1-D index with a stride is STRIDE, "
        "a lane picking the row of a 2-D array is COLUMN, an address from the data is DATA."}},
      {0, "prediction",
       {"Write down each lane's byte offset, then its word, then its bank.",
        "Count the different words each bank must deliver (per lane group for 8- and 16-byte accesses); the "
        "largest count is the wavefronts.",
        "The check's output shows the banksim command that prices the access: run it only once your number is "
        "written down."}},
      {0, "",
       {"Read the failing check's output: it names the file and line and says what happened.",
        "Reproduce the worst instruction with the banksim command the check prints, and change the offsets "
        "until it costs its ideal.",
        "Read the stage's handout section for this task, and the rules in its labs/ README."}},
  };
  return all;
}

}  // namespace

std::vector<std::string> hint_steps(int lab, const std::string& check_name) {
  for (const Ladder& l : ladders()) {
    // A check's name begins with its task ("transpose_swizzled: ...", "swizzle is ..."): a prefix,
    // never a word inside the name ("chunk_transpose_swizzled" holds "swizzle" too).
    if ((l.lab == 0 || l.lab == lab) && check_name.rfind(l.match, 0) == 0) return l.steps;
  }
  return {};
}

std::string format_hint(const GradeResult& result, int level) {
  for (const CheckResult& r : result.results) {
    if (r.outcome.status != Status::kFail) continue;
    const auto steps = hint_steps(result.rubric->lab, r.check->name);
    if (steps.empty()) continue;
    const int count = static_cast<int>(steps.size());
    const int k = level < 1 ? 1 : (level > count ? count : level);
    std::string out = "Hint " + std::to_string(k) + " of " + std::to_string(count) + " for \"" + r.check->name +
                      "\":\n  " + steps[k - 1] + "\n";
    out += k < count ? "  (--hint " + std::to_string(k + 1) + " for the next one)\n"
                     : "  (that is the last hint for this check)\n";
    return out;
  }
  return "Hint: no check fails, nothing to hint at.\n";
}

}  // namespace banklab::grader
