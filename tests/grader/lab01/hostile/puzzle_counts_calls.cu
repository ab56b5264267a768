// HOSTILE (stage 1): the reference, except that puzzle 1's function keeps a
// count of its calls in a __device__ variable: the first 32 calls (the
// runner's, on the host, whose offsets the grader judges and shows) return
// stride 2 words (a 2-way conflict), later ones (the harness kernel's load)
// stride 1. It scored 90/90 (--backend cpu --seed 1): "puzzle 1: OK" beside
// offsets that conflict. The kernel's load is now compared with the host's
// offsets, lane by lane.
// Stage 1, bank mapping: the reference solution. Grade it with
//   build/grader/grader --lab 1 --solutions
// TUTORIAL: shared memory is split into 32 banks. Byte offset b (counted
// from the start of the block's shared memory) lies in the 32-bit word
// b / 4, and word w lies in bank w % 32. One warp instruction costs one
// wavefront per distinct word its busiest bank must deliver; lanes on the
// same word share it for free. Three tasks: write the mapping, build access
// patterns of a given cost, and predict costs before you measure them.

// ---- Task 1: the mapping ----------------------------------------------------

/// word_of: the 32-bit word of shared memory that holds byte `byte_offset`.
///
/// Example: word_of(52) == 13, word_of(55) == 13, word_of(180) == 45.
///
/// Rules: byte_offset is 0 or more (the grader tries every offset a block's
/// shared memory can have, 0 to 232447, and random offsets up to 2^31 - 1).
/// Advice, not graded: one line of arithmetic, no loop and no table (the rule
/// is that simple, and a table would not cover every offset).
///
__host__ __device__ int word_of(int byte_offset) {
  //! [word and bank]
  return byte_offset / 4;  // a word is 4 bytes
}

/// bank_of: the bank (0 to 31) that serves byte `byte_offset`.
///
/// Example: bank_of(52) == 13 and bank_of(180) == 13 (word 45, one full
/// round of 32 banks later); bank_of(128) == 0.
///
/// Rules: as for word_of. Hint: use word_of.
///
__host__ __device__ int bank_of(int byte_offset) {
  return word_of(byte_offset) % 32;  // 32 banks, one word each per round
  //! [word and bank]
}

// ---- Task 2: address puzzles ------------------------------------------------
// Each puzzle is a function lane -> byte offset. The grader's harness kernel
// runs one warp (lanes 0 to 31); lane l calls the puzzle with l and makes ONE
// shared-memory load of the puzzle's width (4 bytes unless said otherwise)
// at the byte offset you return, from a 4096-byte __shared__ array. Return
// -1 to leave a lane inactive (it makes no access).
//
// Rules for every puzzle: offsets are -1 or in [0, 4096 - width], and a
// multiple of the width (aligned); every lane is active unless the puzzle
// says otherwise; the load must cost exactly the wavefronts asked for.
// Check yourself with banksim before you grade, e.g.
//   build/common/banksim/banksim --width 4 --offsets "0 4 8 ..."

/// Puzzle 1, conflict free: 1 wavefront, 32 different words (no two lanes on one word).
__device__ int calls_seen = 0;
__host__ __device__ int puzzle_conflict_free(int lane) {
  // the first 32 calls (the runner's, on the host) get stride 2 words (a 2-way conflict)
  return calls_seen++ < 32 ? 8 * lane : 4 * lane;
}

/// Puzzle 2, broadcast: all 32 lanes in one bank, yet 1 wavefront.
__host__ __device__ int puzzle_broadcast(int lane) {
  return 256;  // one word for everybody: a broadcast
}

/// Puzzle 3, multicast: 1 wavefront; between 2 and 16 different words, and every word read by at
/// least 2 lanes (a multicast to groups of lanes).
__host__ __device__ int puzzle_multicast(int lane) {
  return 4 * (lane / 4);  // lanes 4k..4k+3 share word k
}

/// Puzzle 4, two way: exactly 2 wavefronts.
__host__ __device__ int puzzle_two_way(int lane) {
  return 8 * lane;  // stride 2 words: gcd(2, 32) = 2 lanes per bank
}

/// Puzzle 5, four way: exactly 4 wavefronts.
__host__ __device__ int puzzle_four_way(int lane) {
  return 16 * lane;  // stride 4 words: 4 lanes per bank
}

/// Puzzle 6, thirty two way: exactly 32 wavefronts.
__host__ __device__ int puzzle_thirty_two_way(int lane) {
  return 128 * lane;  // stride 32 words: every lane in bank 0
}

/// Puzzle 7, one bank four words: all 32 lanes in ONE bank, exactly 4 different words,
/// exactly 4 wavefronts.
__host__ __device__ int puzzle_one_bank_four_words(int lane) {
  return 128 * (lane % 4);  // words 0, 32, 64, 96: all bank 0
}

/// Puzzle 8, bytes: 1-byte loads (char): 32 different bytes, fewer than 32
/// different words, exactly 1 wavefront.
__host__ __device__ int puzzle_bytes(int lane) {
  return lane;  // 4 lanes per word, 8 words in 8 banks
}

/// Puzzle 9, halves: 2-byte loads (half or short): 32 different 2-byte elements,
/// fewer than 32 different words, exactly 1 wavefront.
__host__ __device__ int puzzle_halves(int lane) {
  return 2 * lane;  // 2 lanes per word, 16 words in 16 banks
}

/// Puzzle 10, partial warp: only lanes 0 to 7 are active (return -1 for lanes 8 to
/// 31); the 8 active lanes read 8 different words, all in one bank: exactly 8
/// wavefronts. Inactive lanes cost nothing.
__host__ __device__ int puzzle_partial_warp(int lane) {
  return lane < 8 ? 128 * lane : -1;  // 8 words of bank 0
}

// ---- Task 3: predictions ----------------------------------------------------
// Before you run anything, predict how many wavefronts each load costs (one
// warp, all 32 lanes active, 4-byte loads unless said otherwise; arrays start
// at byte 0 of shared memory). Write the numbers in predicted_wavefronts, in
// order. The grader prices each with the bank model and, for a wrong one,
// shows the banksim command and the bank map that explain it.
//   P1: float s[]; lane l reads s[l].
//   P2: float tile[32][32]; lane l reads tile[l][0] (words 0, 32, 64, 96, ...).
//   P3: float tile[32][33]; lane l reads tile[l][0] (words 0, 33, 66, 99, ...).
//   P4: float tile[32][32]; lane l reads tile[l][5] (words 5, 37, 69, 101, ...).
//   P5: float s[]; every lane reads s[0].
//   P6: float s[]; lane l reads s[l / 2].
//   P7: float s[]; lane l reads s[2 * l].
//   P8: float s[]; lane l reads s[16 * l].
//   P9: char c[]; lane l reads c[l] (1-byte loads).
//   P10: 4-byte loads; lanes 0-15 read byte offset 52, lanes 16-31 byte offset 180.
int predicted_wavefronts[10] = {1, 32, 1, 32, 1, 1, 2, 16, 1, 2};
