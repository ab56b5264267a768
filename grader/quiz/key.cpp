// The quiz's key: each question's answer and the full explanation of it,
// in English and in Chinese (for the Chinese sheet, labs/quiz/answers.zh.txt).
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
        "word w is in bank w mod 32.",
        "32 个 bank，warp 的每个 lane 一个：相邻的 4 字节字落在相邻的 bank，"
        "字 w 在 bank w mod 32。"}},
      {2,
       {"a",
        "4 bytes, one 32-bit word. 8 is the size of a double, not of a bank: a warp of 8-byte accesses "
        "is served half a warp at a time, 16-byte accesses a quarter at a time.",
        "4 字节，一个 32 位字。8 是 double 的大小，"
        "不是 bank 的宽度：8 字节访问的 warp 每次服务半个 warp，"
        "16 字节访问每次服务四分之一个 warp。"}},
      {3,
       {"13",
        "word = 180 / 4 = 45, bank = 45 mod 32 = 13. The bank mapping repeats every 128 bytes: byte 52 "
        "(word 13) is in bank 13 too.",
        "字号 = 180 / 4 = 45，bank = 45 mod 32 = 13。"
        "bank 映射每 128 字节重复一次：字节 52（字 13）"
        "也在 bank 13。"}},
      {4,
       {"1",
        "1: lanes on the same word are served together (a broadcast), whatever their number. A conflict "
        "needs different words in one bank.",
        "1：读同一个字的 lane 一起得到服务（广播），不管有多少个。"
        "冲突需要同一个 bank 里的不同字。"}},
      {5,
       {"16",
        "gcd(16, 32) = 16: the lanes use only banks 0 and 16, 16 different words each, so a 16-way "
        "conflict and 16 wavefronts.",
        "gcd(16, 32) = 16：这些 lane 只用到 bank 0 和 bank 16，"
        "每个 bank 16 个不同的字，所以是 16 路冲突，"
        "16 个 wavefront。"}},
      {6,
       {"2",
        "gcd(6, 32) = 2: 32 / 2 = 16 banks are used, 2 words each: a 2-way conflict, 2 wavefronts. Only "
        "the factors of 2 in the stride matter.",
        "gcd(6, 32) = 2：用到 32 / 2 = 16 个 bank，"
        "每个 2 个字：2 路冲突，2 个 wavefront。"
        "步长中只有 2 的因子起作用。"}},
      {7,
       {"1",
        "1: the gcd law assumes 32 active lanes. The 16 lanes read words 0, 2, ..., 30, each in a bank "
        "of its own, so nothing conflicts.",
        "1：gcd 定律假定 32 个 lane 都活跃。这 16 个 lane 读字 0、"
        "2、……、30，各在自己的 bank，所以没有冲突。"}},
      {8,
       {"c",
        "The word is read once and delivered to every lane that asked (a broadcast, for any number of "
        "lanes); stores to one word cost nothing extra either, but which lane's value lands is "
        "undefined.",
        "这个字只读一次，交付给每个请求它的 lane（广播，lane 数不限）"
        "；写同一个字也不多花时间，但最后留下哪个 lane 的值是未定义的。"}},
      {9,
       {"32",
        "Row t starts at word 32 t, so every lane is in bank 0 with a different word: a 32-way conflict, "
        "32 wavefronts.",
        "第 t 行从第 32 t 个字开始，所以每个 lane 都在 bank 0，"
        "各读不同的字：32 路冲突，32 个 wavefront。"}},
      {10, {"1", "Row t starts at word 33 t, in bank t: the 32 lanes use 32 banks, one wavefront.",
        "第 t 行从第 33 t 个字开始，在 bank t：32 个 lane 用到 32 个 bank，"
        "一个 wavefront。"}},
      {11,
       {"c",
        "gcd(33, 32) = 1: consecutive rows start one bank apart, so a column visits all 32 banks. Being "
        "prime is not the point: a row of 31 or 35 floats works too, one of 34 does not.",
        "gcd(33, 32) = 1：相邻两行的起点相差一个 bank，"
        "所以一列会走遍全部 32 个 bank。关键不在素数：一行 31 或 35 个 float 也可以，"
        "34 个不行。"}},
      {12,
       {"2",
        "m[t][t] is word 33 t + t = 34 t: gcd(34, 32) = 2, a 2-way conflict. In m[32][32] the diagonal "
        "(word 33 t) is conflict-free. Work out the stride of the access, then its gcd with 32.",
        "m[t][t] 是字 33 t + t = 34 t：gcd(34, 32) = 2，"
        "2 路冲突。在 m[32][32] 中对角线（字 33 t）"
        "没有冲突。先求出访问的步长，再求它与 32 的最大公约数。"}},
      {13,
       {"1",
        "Lane t reads physical column 5 ^ t, in bank 5 ^ t: for a fixed column the 32 rows give 32 "
        "different banks (t1 != t2 means 5 ^ t1 != 5 ^ t2), so one wavefront, with no extra memory.",
        "lane t 读物理列 5 ^ t，在 bank 5 ^ t："
        "对固定的一列，32 行给出 32 个不同的 bank（t1 != t2 时 5 ^ t1 != 5 ^ t2）"
        "，所以是一个 wavefront，也不多占内存。"}},
      {14,
       {"b",
        "Both paths must use the same map: the read then fetches (row, col) where (row, col ^ row) was "
        "stored, a different element. Nothing faults; put the map in one function and use it on both "
        "sides.",
        "两条路径必须用同一个映射：否则读到的是 (row, col)，"
        "而数据存在 (row, col ^ row)，是另一个元素。"
        "不会报任何错；把映射写在一个函数里，两边都用它。"}},
      {15,
       {"4",
        "4, and no conflict: 16-byte accesses are served a quarter-warp at a time (8 lanes x 16 bytes = "
        "128 bytes per wavefront). Wider types save instructions, not wavefronts.",
        "4，而且没有冲突：16 字节访问每次服务四分之一个 warp（8 个 lane x 16 字节 = 每个 wavefront 128 字节）"
        "。宽类型省的是指令，不是 wavefront。"}},
      {16,
       {"1",
        "1: when every lane's partner (lane t ^ 1) reads the same address, the two half-warps merge into "
        "one group. A float4 broadcast costs 2; broadcast stores never merge.",
        "1：当每个 lane 的搭档（lane t ^ 1）读同一个地址时，"
        "两个半 warp 合并成一个 lane 组。float4 的广播代价是 2；"
        "广播写入从不合并。"}},
      {17,
       {"2",
        "2, which is the ideal for 8-byte accesses (two half-warps): +1 padding already removes every "
        "conflict. double m[32][34] costs 4, a 2-way conflict.",
        "2，这正是 8 字节访问的理想代价（两个半 warp）："
        "填充 1 已经消除了所有冲突。double m[32][34] 的代价是 4，"
        "2 路冲突。"}},
      {18,
       {"a c",
        "Nsight Compute's counters (the instrumented smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared ones; the "
        "hardware l1tex__data_bank_conflicts counters also count wavefronts that concurrent global traffic causes) "
        "and the arithmetic of the indices show conflicts. Timing the whole kernel does not: its time mixes global "
        "traffic with shared, so a conflicted kernel can be only a little slower than a padded one (the stage 3 "
        "transpose: 2.2 times, with 32-way conflicts) or no slower at all; time a shared-load-bound loop instead "
        "(the cycle probe). Capacity says nothing about banks; nvprof does not support compute capability 7.5 and "
        "later.",
        "Nsight Compute 的计数器（插桩的 smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared 系列；"
        "硬件的 l1tex__data_bank_conflicts 计数器还会计入并发全局内存流量造成的 wavefront）"
        "和下标的算术能显示冲突。给整个 kernel 计时不能："
        "它的时间里混着全局内存流量和共享内存流量，所以有冲突的 kernel 可能只比填充过的慢一点（第 3 阶段的转置："
        "有 32 路冲突，慢 2.2 倍），甚至一点不慢；应当给受共享内存加载限制的循环计时（周期探针）"
        "。容量与 bank 无关；nvprof 不支持计算能力 7.5 及以后的 GPU。"}},
      {19,
       {"a b d",
        "Padding, a row-wise access pattern and a swizzle all change which banks the lanes hit; the "
        "block size does not change the addresses one warp instruction uses.",
        "填充、按行访问和 swizzle 都会改变各 lane 落到的 bank；"
        "线程块的大小不会改变一条 warp 指令用到的地址。"}},
      {20,
       {"b",
        "Each conflicting instruction takes 32 wavefronts instead of 1 (on an H200, a shared-load-bound "
        "loop takes as many cycles as wavefronts). The kernel as a whole slows by less, by how much its "
        "time is shared-memory bound: the stage 3 transpose is about 2.2 times slower conflicted.",
        "每条有冲突的指令要 32 个 wavefront 而不是 1 个（在 H200 上，"
        "受共享内存加载限制的循环所花的周期数等于 wavefront 数）"
        "。整个 kernel 慢得少一些，取决于它的时间有多少受共享内存限制："
        "第 3 阶段的转置有冲突时约慢 2.2 倍。"}},
      {21,
       {"b",
        "Banks are shared memory's. A warp's global access costs the 32-byte sectors (of 128-byte lines) "
        "it touches: a stride of 32 floats touches 32 sectors, uncoalesced. Local memory lives in "
        "device memory too (cached in L1 and L2).",
        "bank 是共享内存的。一个 warp 的全局内存访问的代价是它触及的 32 字节扇区（sector，"
        "属于 128 字节的缓存行）：步长 32 个 float 触及 32 个扇区，"
        "不是合并访问。本地内存也在设备内存中（经 L1 和 L2 缓存）。"}},
      {22,
       {"a c",
        "For 4-byte accesses worst is the degree of the line's costliest warp instruction (16-way), and "
        "excess = wavefronts - ideal = 640 - 128 = 512 is what the conflicts cost. 640 / 128 = 5 is only the "
        "average: with a worst of 16, some instructions cost less than 5. The report counts wavefronts, not "
        "time: the kernel's time also holds its global traffic and its arithmetic.",
        "对 4 字节访问，worst 是这一行代价最高的那条 warp 指令的冲突路数（16 路），"
        "excess = wavefronts - ideal = 640 - 128 = 512 是冲突的代价。640 / 128 = 5 只是平均值："
        "worst 为 16，就有指令的代价低于 5。报告统计的是 wavefront，不是时间："
        "kernel 的时间里还有它的全局内存流量和算术运算。"}},
      {23,
       {"16",
        "16: with 2 * 16 * tid < 512 only lanes 0-15 are active, and lane tid reads word 32 tid + 16, in bank "
        "16: one bank, 16 different words. The stride is 32 words, but the gcd law assumes 32 active lanes. "
        "The line's worst instruction is not its first step (stride 1: 2 wavefronts); at stride 8 the 32 lanes "
        "read words 16 apart, 16 wavefronts as well.",
        "16：2 * 16 * tid < 512 时只有 lane 0-15 活跃，lane tid 读第 32 tid + 16 个字，都在 bank 16："
        "一个 bank，16 个不同的字。步长是 32 个字，但 gcd 定律假定 32 个 lane 都活跃。"
        "这一行最差的指令不是它的第一步（步长 1：2 个 wavefront）；步长 8 时 32 个 lane 读的字相隔 16，"
        "也是 16 个 wavefront。"}},
      {24,
       {"b c",
        "A reduction reads each input once from global memory and adds it a few times in shared memory: its "
        "time is its global loads, so the wavefronts the fix saved were not what it waited for. The "
        "instrumented counters (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld and _op_st) count "
        "every shared instruction's wavefronts and show the drop exactly. One launch proves nothing: launches "
        "of one kernel vary by more than such a difference; compare medians of many, or time a loop bound by "
        "shared loads to see what a conflict costs.",
        "归约从全局内存把每个输入读一次，在共享内存里只加几次：它的时间就是全局内存加载，"
        "修复省下的 wavefront 并不是它在等的东西。插桩的计数器"
        "（smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld 和 _op_st）"
        "统计每条共享内存指令的 wavefront，能准确显示减少了多少。一次启动什么也证明不了："
        "同一个 kernel 各次启动的时间差异比这样的差别还大；应比较多次启动的中位数，"
        "或者给受共享内存加载限制的循环计时，才能看出冲突的代价。"}},
  };
  return entries;
}

}  // namespace banklab::grader::quiz
