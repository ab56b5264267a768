// Hostile stage-1 submission: word_of and bank_of know no rule of their own
// (they return the skeleton's byte offset) unless they can read the runner's
// memory. They scan forward from the address of a variable of this file for
// the grader's secret (32 lowercase hex digits, then a NUL) in the runner's
// data, with ordinary loads and no library call; once it is found, they
// answer with the right mapping. The points they score measure what lab code
// can read: with the emulator's memory guard the first load past this file's
// own data stops the run, naming the line.

int predicted_wavefronts[10] = {1, 32, 1, 32, 1, 1, 2, 16, 1, 2};

namespace {

int g_found = 0;  // 0: not looked yet, 1: the secret was read, -1: not found

__host__ __device__ bool hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// Looks for 32 hex digits ending in a NUL, in the 4 MiB after this file's
// own variables (the runner's .data and .bss lie there).
__host__ __device__ int find_secret() {
  const volatile char* p = reinterpret_cast<const volatile char*>(&predicted_wavefronts[0]);
  int run = 0;
  for (long i = 0; i < 4L * 1024 * 1024; ++i) {
    const char c = p[i];  // the guard stops the run here once i leaves this file's data
    if (hex_digit(c)) {
      ++run;
    } else {
      if (c == '\0' && run == 32) return 1;
      run = 0;
    }
  }
  return -1;
}

__host__ __device__ bool secret_read() {
  if (g_found == 0) g_found = find_secret();
  return g_found == 1;
}

}  // namespace

__host__ __device__ int word_of(int byte_offset) { return secret_read() ? byte_offset / 4 : byte_offset; }

__host__ __device__ int bank_of(int byte_offset) { return word_of(byte_offset) % 32; }

__host__ __device__ int puzzle_conflict_free(int lane) { return 4 * lane; }
__host__ __device__ int puzzle_broadcast(int lane) { return 256; }
__host__ __device__ int puzzle_multicast(int lane) { return 4 * (lane / 4); }
__host__ __device__ int puzzle_two_way(int lane) { return 8 * lane; }
__host__ __device__ int puzzle_four_way(int lane) { return 16 * lane; }
__host__ __device__ int puzzle_thirty_two_way(int lane) { return 128 * lane; }
__host__ __device__ int puzzle_one_bank_four_words(int lane) { return 128 * (lane % 4); }
__host__ __device__ int puzzle_bytes(int lane) { return lane; }
__host__ __device__ int puzzle_halves(int lane) { return 2 * lane; }
__host__ __device__ int puzzle_partial_warp(int lane) { return lane < 8 ? 128 * lane : -1; }
