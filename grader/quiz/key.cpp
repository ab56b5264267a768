// The quiz's key: each question's answer and the full explanation of it.
// Instructor material: the student kit (common/scripts/make_student_kit.sh)
// leaves this file out and builds no_key.cpp instead, grading with the
// salted hashes in quiz.cpp; tests/grader/test_quiz.cpp checks that every
// answer here has the hash there and matches solutions/quiz/answers.txt.
#include "quiz.hpp"

namespace banklab::grader::quiz {

const std::map<int, KeyEntry>& key() {
  static const std::map<int, KeyEntry> entries = {
      {1,
       {"c",
        "32 banks, one per lane of a warp: consecutive 4-byte words go to consecutive banks, and "
        "word w is in bank w mod 32."}},
      {2,
       {"a",
        "4 bytes, one 32-bit word. 8 is the size of a double, not of a bank: a warp of 8-byte accesses "
        "is served half a warp at a time, 16-byte accesses a quarter at a time."}},
      {3,
       {"13",
        "word = 180 / 4 = 45, bank = 45 mod 32 = 13. The bank mapping repeats every 128 bytes: byte 52 "
        "(word 13) is in bank 13 too."}},
      {4,
       {"1",
        "1: lanes on the same word are served together (a broadcast), whatever their number. A conflict "
        "needs different words in one bank."}},
      {5,
       {"16",
        "gcd(16, 32) = 16: the lanes use only banks 0 and 16, 16 different words each, so a 16-way "
        "conflict and 16 wavefronts."}},
      {6,
       {"2",
        "gcd(6, 32) = 2: 32 / 2 = 16 banks are used, 2 words each: a 2-way conflict, 2 wavefronts. Only "
        "the factors of 2 in the stride matter."}},
      {7,
       {"1",
        "1: the gcd law assumes 32 active lanes. The 16 lanes read words 0, 2, ..., 30, each in a bank "
        "of its own, so nothing conflicts."}},
      {8,
       {"c",
        "The word is read once and delivered to every lane that asked (a broadcast, for any number of "
        "lanes); stores to one word cost nothing extra either, but which lane's value lands is "
        "undefined."}},
      {9,
       {"32",
        "Row t starts at word 32 t, so every lane is in bank 0 with a different word: a 32-way conflict, "
        "32 wavefronts."}},
      {10, {"1", "Row t starts at word 33 t, in bank t: the 32 lanes use 32 banks, one wavefront."}},
      {11,
       {"c",
        "gcd(33, 32) = 1: consecutive rows start one bank apart, so a column visits all 32 banks. Being "
        "prime is not the point: a row of 31 or 35 floats works too, one of 34 does not."}},
      {12,
       {"2",
        "m[t][t] is word 33 t + t = 34 t: gcd(34, 32) = 2, a 2-way conflict. In m[32][32] the diagonal "
        "(word 33 t) is conflict-free. Work out the stride of the access, then its gcd with 32."}},
      {13,
       {"1",
        "Lane t reads physical column 5 ^ t, in bank 5 ^ t: for a fixed column the 32 rows give 32 "
        "different banks (t1 != t2 means 5 ^ t1 != 5 ^ t2), so one wavefront, with no extra memory."}},
      {14,
       {"b",
        "Both paths must use the same map: the read then fetches (row, col) where (row, col ^ row) was "
        "stored, a different element. Nothing faults; put the map in one function and use it on both "
        "sides."}},
      {15,
       {"4",
        "4, and no conflict: 16-byte accesses are served a quarter-warp at a time (8 lanes x 16 bytes = "
        "128 bytes per wavefront). Wider types save instructions, not wavefronts."}},
      {16,
       {"1",
        "1: when every lane's partner (lane t ^ 1) reads the same address, the two half-warps merge into "
        "one group. A float4 broadcast costs 2; broadcast stores never merge."}},
      {17,
       {"2",
        "2, which is the ideal for 8-byte accesses (two half-warps): +1 padding already removes every "
        "conflict. double m[32][34] costs 4, a 2-way conflict."}},
      {18,
       {"a c",
        "Nsight Compute's counters (the instrumented smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared ones; the "
        "hardware l1tex__data_bank_conflicts counters also count wavefronts that concurrent global traffic causes) "
        "and the arithmetic of the indices show conflicts. Timing the whole kernel does not: its time mixes global "
        "traffic with shared, so a conflicted kernel can be only a little slower than a padded one (the stage 3 "
        "transpose: 2.2 times, with 32-way conflicts) or no slower at all; time a shared-load-bound loop instead "
        "(the cycle probe). Capacity says nothing about banks; nvprof does not support compute capability 7.5 and "
        "later."}},
      {19,
       {"a b d",
        "Padding, a row-wise access pattern and a swizzle all change which banks the lanes hit; the "
        "block size does not change the addresses one warp instruction uses."}},
      {20,
       {"b",
        "Each conflicting instruction takes 32 wavefronts instead of 1 (on an H200, a shared-load-bound "
        "loop takes as many cycles as wavefronts). The kernel as a whole slows by less, by how much its "
        "time is shared-memory bound: the stage 3 transpose is about 2.2 times slower conflicted."}},
      {21,
       {"b",
        "Banks are shared memory's. A warp's global access costs the 32-byte sectors (of 128-byte lines) "
        "it touches: a stride of 32 floats touches 32 sectors, uncoalesced. Local memory lives in "
        "device memory too (cached in L1 and L2)."}},
  };
  return entries;
}

}  // namespace banklab::grader::quiz
