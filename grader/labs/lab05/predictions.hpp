// Stage 5's ten prediction patterns, as the lab file states them: each
// lane's byte offset (-1: inactive), the access width and direction. Plain
// C++17 with no dependencies: the rubric prices them with the bank model and
// the GPU runner measures them with the cycle probe.
#pragma once

namespace lab05 {

inline constexpr int kPredictions = 10;

struct PredictionPattern {
  const char* id;
  const char* question;  ///< the lab file's words
  int width_bytes;
  bool store;
};

inline constexpr PredictionPattern kPatterns[kPredictions] = {
    {"P1", "every lane loads the same double", 8, false},
    {"P2", "every lane loads the same float4", 16, false},
    {"P3", "every lane stores to the same double", 8, true},
    {"P4", "every lane stores to the same float4", 16, true},
    {"P5", "lane l loads double l (consecutive doubles; lanes 0 and 16 share a bank)", 8, false},
    {"P6", "lane l loads float4 l", 16, false},
    {"P7", "lane l loads tile[l][0] of double tile[32][16]", 8, false},
    {"P8", "lane l loads double l / 2 (lanes 2t and 2t+1 load the same double)", 8, false},
    {"P9", "only lanes 0-7 are active; lane l loads double l", 8, false},
    {"P10", "lane l loads tile[l][0] of half tile[64][65]", 2, false},
};

/// Lane `lane`'s byte offset in pattern `p` (0-based), or -1 if inactive.
inline long long pattern_offset(int p, int lane) {
  switch (p) {
    case 0: case 1: case 2: case 3: return 0;
    case 4: return 8LL * lane;
    case 5: return 16LL * lane;
    case 6: return 8LL * 16 * lane;
    case 7: return 8LL * (lane / 2);
    case 8: return lane < 8 ? 8LL * lane : -1;
    case 9: return 2LL * 65 * lane;
    default: return -1;
  }
}

}  // namespace lab05
