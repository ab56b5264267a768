#include "quiz.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "sha256.hpp"

namespace banklab::grader::quiz {

namespace {

const char* const kStage1 = "stage 1: bank mapping";
const char* const kStage2 = "stage 2: stride and gcd";
const char* const kStage3 = "stage 3: padded transpose";
const char* const kStage4 = "stage 4: XOR swizzle";
const char* const kStage5 = "stage 5: broadcast and wide types";
const char* const kStage6 = "stage 6: the capstone";
const char* const kTools = "measuring and fixing";

Question choice(int n, const char* part, std::string title, std::string text, std::vector<std::string> choices,
                std::string concept_text, Kind kind = Kind::kChoice) {
  Question q;
  q.number = n;
  q.part = part;
  q.title = std::move(title);
  q.text = std::move(text);
  q.kind = kind;
  q.choices = std::move(choices);
  q.concept_text = std::move(concept_text);
  return q;
}

Question number(int n, const char* part, std::string title, std::string text, WarpAccess access,
                std::string concept_text, Measure measure = Measure::kWavefronts) {
  Question q;
  q.number = n;
  q.part = part;
  q.title = std::move(title);
  q.text = std::move(text);
  q.kind = Kind::kNumber;
  q.concept_text = std::move(concept_text);
  q.access = access;
  q.measure = measure;
  return q;
}

// The answers, sealed: (question, salt, sha256_hex(salt:question:answer)).
// The instructor's tree checks them against key.cpp (tests/grader/test_quiz.cpp
// prints the row to use when an answer changes).
struct Sealed {
  int number;
  const char* salt;
  const char* hash;
};
const Sealed kSealed[] = {
      {1, "b3ebc86d5d299bf8", "b748bc086d8a704ad660caadf8ea221d8431be6f627f7d7ba6132fd0eb540d42"},
      {2, "b4b786ee3a3ac61a", "d3d56b8de8380d98180fb62b1d8085eadcac52f0313608cf17896f9fdfa25a36"},
      {3, "3f8ea11e519026c7", "5cc1927000edde342b8d4194c67e4740c8ba5185654b10042a5509a9a62c6f65"},
      {4, "2570f82e03b86440", "fe1e121cf8a8a36c1c9ca016a279df55b2c50176f91fab4b2ead99891a82f219"},
      {5, "2e45c5adb91f60d0", "357d1161272f0781287c20e79b71cffd9b4b96fb118411d8e16d614ba30f90b2"},
      {6, "c96a2dccdf454841", "f587c89d8edcc70baf67c03eeb9c0cbd2d02bc4317fa8fd8683753d7037575d4"},
      {7, "b1388e1c27658e07", "4c0da9b3a95018294da7d9197dee26dc2596f684d6d698b70829e11ccc0e9dbd"},
      {8, "de1af0b2f8b5db1d", "d3382753205674acfe86388cd2ed16af86371a828308f51987ffc3f682ae5f63"},
      {9, "ef2f9558a1904fec", "c723a16874e931c7958705bd5de159a55d25da0aee23e19310b96a77a3e799fd"},
      {10, "a4d6f88b6a6e69e1", "2a093dab869804306c67cff231ba98363a923caf074bfd53502863c59c487c97"},
      {11, "c0284002442b8d13", "bd02f82afb2ddda589b54a5c9dc953e1e125b60978d27cd7fa0245d28f417f49"},
      {12, "baa056c23c4add56", "98045029f68fc15f57cc13a2c5685e6ad3c440e6023b5d52de5e5815871a8db6"},
      {13, "bec5cfd2fa9e4cef", "df0a94e416ab1a8cf0a1b9919ec370dcb86c3198dfc0aa712864de803a35e2cf"},
      {14, "f4bc91d302cb4b77", "1b6c33c27272c555c839aed1c31e33b563f8bc4ef908d2c8d42bb11d70cb0bad"},
      {15, "bf14f7f738ba2119", "fe732ffc164e420069e0f050787136a2620aa861e0c3260a1eaf8958c7084e1c"},
      {16, "cd617a5b1c94c0b6", "180ea0884629eb3f21574f943e4d5ee75884643d97b4e459c9c1d52fc5b30ed7"},
      {17, "001600416129f6cd", "122e402a0d820858c9b2731d6d0b2d75e0153070070cac6e9e2d485c523941bd"},
      {18, "27b0e18d35452b91", "a3dd40c2c07963c9edf209f62a6a89f57afc4fa59b588d936d94bc1595b8f563"},
      {19, "b54c864715fb933d", "325497840ac72c10bfda4af1bf87b5438dc7d21d5aa751729a72f8813e5ccd72"},
      {20, "127ea38a01d67eb7", "6642a9f151d132fa66b2e29747095f2101b703a46c420529bd8f990bcedeb6fb"},
      {21, "135ecec4928dbb8f", "8528e321e707637646c0a38038a60c59ea45a9a65cfa38a17501e899dbf52f69"},
      {22, "640b6c6fbb809a32", "fbd6275f768e3ee17aaaa9e74c8306b3c76c764c2f66b89348a03e253779d13c"},
      {23, "c751dec563350684", "36298f77da565bd3cbbd92859c2b7ef747d876cd4b31ab0f88af6ddae81f5d64"},
      {24, "7db6915612a1820a", "39b59b1de0ea22f571d1d9a715c35f1f679facf404d22441a03be06d56b27b8f"},
};

// Each question's concept_text in Chinese, for the Chinese sheet: the same
// idea, the terms of handouts/zh/glossary.md, the Chinese handouts' pages and
// section titles; like the English, never the answer.
struct Translated {
  int number;
  const char* text;
};
const Translated kConceptZh[] = {
    {1, "相邻的 4 字节字落在相邻的 bank，一个完整 warp 的每个 lane 对应一个 bank：见 "
        "handouts/zh/01-bank-mapping.md 的“字节、字、bank”一节。"},
    {2, "一个 bank 每个 wavefront 交付一个字，bank 规则正是用字的大小去除字节偏移"
        "（handouts/zh/01-bank-mapping.md）。更宽的类型按更小的 lane 组服务，而不是由更宽的 bank 服务"
        "（handouts/zh/05-wide-types.md）。"},
    {3, "字号 = 字节偏移 / 4，bank = 字号 mod 32（handouts/zh/01-bank-mapping.md）；下面的命令在 bank "
        "图中打印这一个 lane 所在的 bank。"},
    {4, "一个 bank 的代价是它必须交付的不同字的个数，而不是请求它的 lane 数：请求同一个字的多个 lane "
        "代价是多少？（handouts/zh/01-bank-mapping.md，“同一个字”。）"},
    {5, "lane t 读第 s t 个字：这些 lane 落在 32 / gcd(s, 32) 个不同的 bank 中，每个 bank "
        "gcd(s, 32) 个字（handouts/zh/02-stride-gcd.md）。"},
    {6, "lane t 读第 s t 个字：这些 lane 落在 32 / gcd(s, 32) 个不同的 bank 中，每个 bank "
        "gcd(s, 32) 个字；只有 s 中 2 的因子起作用（handouts/zh/02-stride-gcd.md）。"},
    {7, "gcd 定律假定 32 个 lane 都活跃。活跃的 lane 较少时，列出它们读的字，再数每个 bank "
        "得到几个不同的字（handouts/zh/02-stride-gcd.md）。"},
    {8, "几个 lane 请求同一个字时，bank 怎么做？lane 的个数有没有关系？"
        "（handouts/zh/01-bank-mapping.md，“同一个字”。）"},
    {9, "float m[32][W] 的第 t 行从第 W t 个字开始：算出每个 lane 的 m[t][0] 所在的 bank，再找出一个 "
        "bank 最多要交付几个不同的字（handouts/zh/03-padded-transpose.md）。"},
    {10, "float m[32][W] 的第 t 行从第 W t 个字开始：算出每个 lane 的 m[t][0] 所在的 bank，再找出一个 "
         "bank 最多要交付几个不同的字（handouts/zh/03-padded-transpose.md）。"},
    {11, "决定相邻两行是否从不同的 bank 开始的，是行长与 32 的最大公约数，而不是行长是不是素数"
         "（handouts/zh/02-stride-gcd.md、handouts/zh/03-padded-transpose.md）。"},
    {12, "把 m[t][t] 的字号写成某个步长乘以 t，再求这个步长与 32 的最大公约数"
         "（handouts/zh/02-stride-gcd.md）。填充修好的是一种访问模式，而不是所有访问模式。"},
    {13, "lane t 读第 t 行的物理列 5 ^ t：t -> 5 ^ t 在 0-31 上是不是一一对应？每一列在哪个 bank？"
         "（handouts/zh/04-xor-swizzle.md。）"},
    {14, "swizzle 是从逻辑位置到物理位置的映射；经另一个映射读取，取到的是另一个元素。硬件会察觉吗？"
         "（handouts/zh/04-xor-swizzle.md。）"},
    {15, "16 字节的访问每次服务四分之一个 warp，理想代价是每个 lane 组一个 wavefront"
         "（handouts/zh/05-wide-types.md，“比一个字宽：lane 组”）。"},
    {16, "8 字节的加载每次服务半个 warp，除非每个 lane 的搭档都读同一个地址：加载的成对合并"
         "（handouts/zh/05-wide-types.md）。"},
    {17, "double m[32][33] 的第 t 行比第 t - 1 行晚 66 个字开始：每次对半个 warp 定价，再与 8 字节 "
         "warp 指令的理想代价比较（handouts/zh/05-wide-types.md）。"},
    {18, "其中哪些看的是共享内存指令本身，哪些只看到整个 kernel？整个 kernel 的时间里混着全局内存流量"
         "和共享内存流量。（handouts/zh/misconceptions.md：“32 路冲突让 kernel 慢 32 倍”；“Nsight "
         "Compute 的冲突计数器能显示修复效果”。）"},
    {19, "bank 冲突由一条 warp 指令中各 lane 的地址决定：其中哪些做法会改变这些地址？"
         "（handouts/zh/03-padded-transpose.md、handouts/zh/04-xor-swizzle.md。）"},
    {20, "wavefront 按每条共享内存指令计数；一个 kernel 的时间里还有它的全局内存流量和其他一切"
         "（handouts/zh/misconceptions.md：“32 路冲突让 kernel 慢 32 倍”）。"},
    {21, "bank 属于共享内存；一次全局内存访问按一个 warp 触及的内存扇区（sector）定价"
         "（handouts/zh/misconceptions.md：“本地内存在片上并分 bank”）。"},
    {22, "报告一行中的每一列回答各自的问题：哪些列是对这一行所有 warp 指令求和，哪一列只描述一条指令，"
         "excess 又是从哪个理想值算起的？kernel 的时间里不止有共享内存"
         "（handouts/zh/06-capstone.md，第 3 步：读报告）。"},
    {23, "循环中的一行每一步执行的 warp 指令都不同：在这一步，列出 warp 0 中活跃的 lane 和它们读的字，"
         "再数每个 bank 得到几个不同的字；gcd 定律假定 32 个 lane 都活跃"
         "（handouts/zh/06-capstone.md，第 3 步；handouts/zh/02-stride-gcd.md）。"},
    {24, "其中哪些看的是共享内存指令本身，哪些看的是整个 kernel，而 kernel 的时间里还有它的全局内存流量？"
         "同一个 kernel 各次启动的时间相差多少？（handouts/zh/06-capstone.md：“kernel 的时间能说明什么，"
         "不能说明什么”；“第 5 步：在 GPU 上确认”。）"},
};

WarpAccess loads(int width, std::int64_t stride, std::int64_t base = 0, LaneMask lanes = 0xffffffffu) {
  return strided_access(width, MemOp::kLoad, stride, base, lanes);
}

// Lane l reads logical (l, col) of a 32x32 float tile stored XOR-swizzled:
// physical column col ^ l.
WarpAccess swizzled_column(int col) {
  std::vector<std::int64_t> offsets;
  for (int l = 0; l < kWarpSize; ++l) offsets.push_back(4 * (32 * l + (col ^ l)));
  return WarpAccess::make(4, MemOp::kLoad, offsets);
}

std::vector<Question> make_questions() {
  std::vector<Question> q;
  // ---- stage 1 ----
  q.push_back(choice(1, kStage1, "banks of shared memory",
                     "How many banks does shared memory have on current NVIDIA GPUs (an H200, say)?",
                     {"a) 8", "b) 16", "c) 32", "d) 64"},
                     "Consecutive 4-byte words go to consecutive banks, one bank for each lane of a full warp: "
                     "handouts/01-bank-mapping.md, the bank rule."));
  q.push_back(choice(2, kStage1, "width of a bank",
                     "How many bytes does one bank deliver per wavefront?", {"a) 4", "b) 8", "c) 16", "d) 32"},
                     "A bank delivers one word per wavefront, and the word is what the bank rule divides a byte offset "
                     "by (handouts/01-bank-mapping.md). Wider types are served in smaller lane groups, not by wider "
                     "banks (handouts/05-wide-types.md)."));
  q.push_back(number(3, kStage1, "the bank of byte 180",
                     "A float sits at byte offset 180 of shared memory. Which bank holds it?",
                     loads(4, 0, 180, 1u),
                     "word = byte offset / 4, bank = word mod 32 (handouts/01-bank-mapping.md); the command below prints "
                     "the bank of that one lane in its bank map.",
                     Measure::kBankOfLane0));
  q.push_back(number(4, kStage1, "32 lanes on one float",
                     "Every lane of a warp reads the same float, m[0][0]. How many wavefronts does the load cost? "
                     "(A common belief: a 32-way conflict.)",
                     loads(4, 0),
                     "A bank's cost is the number of different words it must deliver, not the number of lanes that ask: "
                     "what do lanes that ask for the same word cost? (handouts/01-bank-mapping.md, same word.)"));
  // ---- stage 2 ----
  q.push_back(number(5, kStage2, "stride 16",
                     "Lane t of a full warp reads the float at word 16 * t. How many wavefronts?",
                     loads(4, 16),
                     "Lane t at word s t: the lanes fall in 32 / gcd(s, 32) different banks, gcd(s, 32) words each "
                     "(handouts/02-stride-gcd.md)."));
  q.push_back(number(6, kStage2, "stride 6",
                     "Lane t of a full warp reads the float at word 6 * t. How many wavefronts?",
                     loads(4, 6),
                     "Lane t at word s t: the lanes fall in 32 / gcd(s, 32) different banks, gcd(s, 32) words each; only "
                     "the factors of 2 in s matter (handouts/02-stride-gcd.md)."));
  q.push_back(number(7, kStage2, "stride 2 on half a warp",
                     "Only lanes 0-15 are active; lane t reads the float at word 2 * t. How many wavefronts?",
                     loads(4, 2, 0, 0x0000ffffu),
                     "The gcd law assumes 32 active lanes. With fewer, list the words the active lanes read and count "
                     "how many different ones each bank gets (handouts/02-stride-gcd.md)."));
  q.push_back(choice(8, kStage2, "what a broadcast is",
                     "Which statement about several lanes reading the same 4-byte word is true?",
                     {"a) the reads are served one after another", "b) it is a conflict unless all 32 lanes read it",
                      "c) the word is delivered to all of them at once: no conflict",
                      "d) it only helps for writes"},
                     "What does a bank do when several lanes ask for one word, and does the number of lanes matter? "
                     "(handouts/01-bank-mapping.md, same word.)"));
  // ---- stage 3 ----
  q.push_back(number(9, kStage3, "column of a 32x32 tile",
                     "float m[32][32]; lane t reads m[t][0]. How many wavefronts?",
                     loads(4, 32),
                     "Row t of float m[32][W] starts at word W t: work out the bank of m[t][0] for every lane, then the "
                     "most different words one bank must deliver (handouts/03-padded-transpose.md)."));
  q.push_back(number(10, kStage3, "column of a 32x33 tile",
                     "float m[32][33]; lane t reads m[t][0]. How many wavefronts?",
                     loads(4, 33),
                     "Row t of float m[32][W] starts at word W t: work out the bank of m[t][0] for every lane, then the "
                     "most different words one bank must deliver (handouts/03-padded-transpose.md)."));
  q.push_back(choice(11, kStage3, "why 33 works",
                     "Why does a row length of 33 floats make the column read conflict-free?",
                     {"a) 33 is prime", "b) the padding gives shared memory more capacity",
                      "c) 33 is coprime to 32, so each row starts one bank further",
                      "d) the compiler reorders the accesses"},
                     "What decides whether consecutive rows start in different banks is the row length's gcd with 32, "
                     "not whether it is prime (handouts/02-stride-gcd.md, handouts/03-padded-transpose.md)."));
  q.push_back(number(12, kStage3, "diagonal of a 32x33 tile",
                     "float m[32][33]; lane t reads the diagonal element m[t][t]. How many wavefronts? (Padding is "
                     "not a universal fix.)",
                     loads(4, 34),
                     "Write the word of m[t][t] as a stride times t, then take that stride's gcd with 32 "
                     "(handouts/02-stride-gcd.md). Padding fixes one access pattern, not all of them."));
  // ---- stage 4 ----
  q.push_back(number(13, kStage4, "a column of the swizzled tile",
                     "A 32x32 float tile is stored XOR-swizzled: logical (row, col) at physical (row, col ^ row). "
                     "Lane t reads logical (t, 5). How many wavefronts?",
                     swizzled_column(5),
                     "Lane t reads physical column 5 ^ t of row t: is t -> 5 ^ t one-to-one over 0-31, and which bank is "
                     "each column in? (handouts/04-xor-swizzle.md.)"));
  q.push_back(choice(14, kStage4, "swizzling one side only",
                     "A kernel writes its tile swizzled (col ^ row) but reads it back with plain (row, col). What "
                     "happens?",
                     {"a) it does not compile", "b) it runs and returns wrong data, with no error",
                      "c) it runs correctly but with bank conflicts", "d) the GPU reports a misaligned access"},
                     "A swizzle is the map from logical to physical positions; a read through another map fetches "
                     "another element. Would the hardware notice? (handouts/04-xor-swizzle.md.)"));
  // ---- stage 5 ----
  q.push_back(number(15, kStage5, "a warp of float4 loads",
                     "Lane t loads the float4 at index t (16 bytes each, no two lanes on one word). How many "
                     "wavefronts on an H200?",
                     loads(16, 1),
                     "16-byte accesses are served a quarter-warp at a time, and the ideal is one wavefront per lane "
                     "group (handouts/05-wide-types.md, lane groups)."));
  q.push_back(number(16, kStage5, "a double broadcast",
                     "Every lane loads the same double (8 bytes). How many wavefronts on an H200?",
                     loads(8, 0),
                     "8-byte loads are served a half-warp at a time, unless every lane's partner reads the same address: "
                     "the load pair-merge (handouts/05-wide-types.md)."));
  q.push_back(number(17, kStage5, "column of a double[32][33] tile",
                     "double m[32][33]; lane t reads m[t][0]. How many wavefronts? (A common claim: +1 is not enough "
                     "for doubles, pad by 2.)",
                     loads(8, 33),
                     "Row t of double m[32][33] starts 66 words after row t - 1: price one half-warp at a time, and "
                     "compare with the ideal of an 8-byte warp instruction (handouts/05-wide-types.md)."));
  // ---- measuring and fixing ----
  q.push_back(choice(18, kTools, "diagnosing conflicts",
                     "Which of these show whether a kernel has shared-memory bank conflicts? (Give every right "
                     "letter.)",
                     {"a) Nsight Compute's shared wavefront and bank-conflict counters",
                      "b) timing the whole kernel with and without padding",
                      "c) working out the banks of the source's index expressions",
                      "d) comparing the kernel's shared memory size with the GPU's capacity"},
                     "Which of these look at the shared-memory instructions themselves, and which see only the whole "
                     "kernel, whose time mixes global traffic with shared? (handouts/misconceptions.md: a 32-way "
                     "conflict makes the kernel 32 times slower; Nsight Compute's conflict counter.)", Kind::kChoices));
  q.push_back(choice(19, kTools, "fixing conflicts",
                     "Which of these can remove a bank conflict? (Give every right letter.)",
                     {"a) padding the row length", "b) reading along a row instead of down a column",
                      "c) launching larger blocks", "d) an XOR swizzle of the column index"},
                     "A bank conflict is decided by the addresses of one warp instruction's lanes: which of these change "
                     "them? (handouts/03-padded-transpose.md, handouts/04-xor-swizzle.md.)", Kind::kChoices));
  q.push_back(choice(20, kTools, "what a conflict costs",
                     "A loop of shared loads has a 32-way conflict on every load. What slows down 32 times?",
                     {"a) the whole kernel, always", "b) each conflicting shared-memory instruction",
                      "c) only the first access of each warp", "d) global memory accesses of the same warp"},
                     "Wavefronts are counted per shared-memory instruction; a kernel's time also holds its global "
                     "traffic and everything else (handouts/misconceptions.md: a 32-way conflict makes the kernel 32 "
                     "times slower)."));
  q.push_back(choice(21, kTools, "banks and global memory",
                     "A kernel is slow and its warps read global memory with a stride of 32 floats. Which is true?",
                     {"a) it has a 32-way bank conflict, like shared memory with that stride",
                      "b) global memory has no banks in this sense: the cost is coalescing (how many 32-byte "
                      "sectors a warp touches)",
                      "c) padding the global array by one float removes the conflict",
                      "d) local memory would avoid it, because local memory is banked on-chip storage"},
                     "Banks belong to shared memory; a global access is priced by the memory sectors a warp touches "
                     "(handouts/misconceptions.md: local memory is on-chip and banked)."));
  // ---- stage 6 ----
  // None of these asks for a row of the stage's graded diagnosis (the worst
  // or cause of a line of labs/06-capstone/original.cu): they train reading a
  // report row, pricing one step of a loop (a reduction of 512 threads, not
  // the stage's 256) and telling the kernel's time from the counters.
  q.push_back(choice(22, kStage6, "reading a report row",
                     "A line of a banklab run report of 4-byte loads reads: loads 4096, stores 0, warp instr 128, "
                     "wavefronts 640, ideal 128, excess 512, worst 16. Which are true? (Give every right letter.)",
                     {"a) the line's costliest warp instruction is a 16-way conflict",
                      "b) every warp instruction of the line costs 5 wavefronts",
                      "c) the line's conflicts cost 512 wavefronts over its ideal",
                      "d) the kernel would run 5 times faster with this line at its ideal"},
                     "Each column of the row answers its own question: which ones sum over all of the line's warp "
                     "instructions, which one describes a single instruction, and what is the ideal the excess is "
                     "counted from? A kernel's time holds more than its shared memory (handouts/06-capstone.md, step "
                     "3: read the report).", Kind::kChoices));
  q.push_back(number(23, kStage6, "stride 16 of a 512-thread reduction",
                     "A reduction of 512 ints per thread block uses interleaved addressing: at the step with stride s, "
                     "thread tid adds partial[2 * s * tid + s] into partial[2 * s * tid] if 2 * s * tid < 512. At the "
                     "step with stride 16, how many wavefronts does warp 0's load of partial[2 * s * tid + s] cost?",
                     loads(4, 32, 4 * 16, 0x0000ffffu),  // word 32 tid + 16, lanes 0-15 (32 tid < 512)
                     "A loop line's warp instructions change from step to step: at this step, list warp 0's active "
                     "lanes and the words they read, then count the different words in each bank; the gcd law assumes "
                     "32 active lanes (handouts/06-capstone.md, step 3; handouts/02-stride-gcd.md)."));
  q.push_back(choice(24, kStage6, "a fix the time does not show",
                     "You fix every conflicted line of a reduction kernel: banklab run now shows no excess on any "
                     "line and the result is still right, but on the GPU the kernel's median time over 20 launches is "
                     "the same as before, within 1%. Which are true? (Give every right letter.)",
                     {"a) the fix did not work: removing a conflict always shows in the kernel's time",
                      "b) the kernel's time is set by something else, such as its global loads, not by shared memory",
                      "c) Nsight Compute's instrumented shared-memory wavefront counters show the fix exactly",
                      "d) timing a single launch of each version would show the difference"},
                     "Which of these look at the shared-memory instructions, and which at the whole kernel, whose time "
                     "holds its global traffic too? How much does one launch's time vary? (handouts/06-capstone.md: "
                     "what the kernel's time shows, and what it does not; step 5: confirm on a GPU.)", Kind::kChoices));
  for (Question& question : q) {
    for (const Sealed& sealed : kSealed) {
      if (sealed.number == question.number) {
        question.salt = sealed.salt;
        question.hash = sealed.hash;
      }
    }
    for (const Translated& zh : kConceptZh) {
      if (zh.number == question.number) question.concept_text_zh = zh.text;
    }
  }
  return q;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "a, c  b" -> "a b c"; "" if something else than letters a-d is there.
std::string letters(const std::string& text, std::string& bad) {
  std::string found;
  for (char c : lower(text)) {
    if (c == ',' || c == ' ' || c == '\t') continue;
    if (c >= 'a' && c <= 'd') {
      if (found.find(c) == std::string::npos) found += c;
    } else {
      bad = std::string(1, c);
      return "";
    }
  }
  std::sort(found.begin(), found.end());
  std::string out;
  for (char c : found) out += (out.empty() ? "" : " ") + std::string(1, c);
  return out;
}

std::string wrap(const std::string& text, const std::string& prefix, std::size_t width = 78) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() + prefix.size() > width) {
      out += prefix + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += prefix + line + "\n";
  return out;
}

// The UTF-8 sequence starting at text[i]: its length and code point.
std::size_t utf8_at(const std::string& text, std::size_t i, char32_t& code) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(i + k < text.size() ? text[i + k] : 0); };
  const unsigned char lead = byte(0);
  std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  code = length == 1 ? lead : lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) {  // not UTF-8: a byte of its own
      code = lead;
      return 1;
    }
    code = (code << 6) | (byte(k) & 0x3F);
  }
  return length;
}

bool is_han(char32_t code) { return code >= 0x4E00 && code <= 0x9FFF; }

// Chinese punctuation a line must not start with (it closes what comes before).
bool closes(char32_t code) {
  for (char32_t c : std::u32string(U"，。、；：？！）”』」》")) {
    if (code == c) return true;
  }
  return false;
}

// wrap() for text that mixes Chinese and ASCII: a line may break between two
// Chinese characters, not only at spaces, never before closing punctuation or
// after an opening one; a Chinese character is two columns wide.
std::string wrap_zh(const std::string& text, const std::string& prefix, std::size_t width = 78) {
  struct Unit {
    std::string text;
    std::size_t columns = 0;
    bool space_before = false;
  };
  std::vector<Unit> units;
  bool space = false, glue = false;  // glue: the last unit opened a bracket or quote
  for (std::size_t i = 0; i < text.size();) {
    char32_t code = 0;
    const std::size_t length = utf8_at(text, i, code);
    const std::string piece = text.substr(i, length);
    i += length;
    if (code == ' ' || code == '\t' || code == '\n') {
      space = true;
      continue;
    }
    const bool ascii = code < 0x80;
    const std::size_t columns = ascii ? 1 : 2;
    const bool joins = !units.empty() && !space &&
                       (glue || closes(code) ||
                        (ascii && static_cast<unsigned char>(units.back().text.back()) < 0x80));
    if (joins) {
      units.back().text += piece;
      units.back().columns += columns;
    } else {
      units.push_back({piece, columns, space});
    }
    glue = code == U'（' || code == U'“' || code == U'「';
    space = false;
  }
  std::string out, line;
  std::size_t used = 0;
  for (const Unit& unit : units) {
    const std::size_t gap = line.empty() || !unit.space_before ? 0 : 1;
    if (!line.empty() && prefix.size() + used + gap + unit.columns > width) {
      out += prefix + line + "\n";
      line.clear();
      used = 0;
    }
    if (!line.empty() && unit.space_before) {
      line += " ";
      ++used;
    }
    line += unit.text;
    used += unit.columns;
  }
  if (!line.empty()) out += prefix + line + "\n";
  return out;
}

Outcome judge(const Question& q, const std::map<int, std::string>& answers, Language language) {
  const bool zh = language == Language::kChinese;
  const auto found = answers.find(q.number);
  const std::string given = found == answers.end() ? "" : found->second;
  const std::string number = std::to_string(q.number);
  if (given.empty()) {
    return Outcome::fail(zh ? "未作答：请在“" + number + ":”后面写上你的答案"
                            : "not answered: write your answer after \"" + number + ":\"");
  }
  const std::string answer = normalised(q, given);
  if (answer.empty()) {
    if (q.kind == Kind::kNumber) {
      return Outcome::fail(zh ? "“" + given + "”不是整数：请写一个整数"
                              : "\"" + given + "\" is not a whole number: answer with one number");
    }
    std::string bad;
    letters(given, bad);
    if (!bad.empty()) {
      if (zh) {
        return Outcome::fail("“" + given + "”：" +
                             (q.kind == Kind::kChoice ? std::string("请写一个字母，a 到 d")
                                                      : std::string("请写字母 a 到 d，字母之间用空格分隔")));
      }
      return Outcome::fail("\"" + given + "\": answer with " +
                           (q.kind == Kind::kChoice ? std::string("one letter, a to d")
                                                    : std::string("letters a to d, separated by spaces")));
    }
    return Outcome::fail(zh ? "“" + given + "”：这道题只有一个正确答案，请只写一个字母"
                            : "\"" + given + "\": this question has one right answer; give one letter");
  }
  if (is_answer(q, answer)) return Outcome::pass((zh ? "你的答案：" : "your answer: ") + answer);
  // The instructor's tree names the right answer and explains it; the
  // student kit has no key, and says what to revisit.
  std::string reason;
  const auto entry = key().find(q.number);
  if (entry != key().end() && zh) {
    reason = "你的答案：" + answer + "；正确答案：" + entry->second.answer + "\n" +
             wrap_zh("原因：" + entry->second.why_zh, "");
  } else if (entry != key().end()) {
    reason = "your answer: " + answer + "; the right " + (q.kind == Kind::kChoices ? "ones: " : "one: ") +
             entry->second.answer + "\n" + wrap("why: " + entry->second.why, "");
  } else if (zh) {
    reason = "你的答案：" + answer + " 不对\n" + wrap_zh("复习：" + q.concept_text_zh, "");
  } else {
    reason = "your answer: " + answer + " is not right\n" + wrap("revisit: " + q.concept_text, "");
  }
  if (q.kind == Kind::kNumber) reason += (zh ? "用 banksim 查看：" : "see it: ") + banksim_command(q) + "\n";
  return Outcome::fail(reason);
}

}  // namespace

const std::vector<Question>& questions() {
  static const std::vector<Question> all = make_questions();
  return all;
}

std::string normalised(const Question& q, const std::string& given) {
  if (q.kind == Kind::kNumber) {
    std::size_t used = 0;
    long value = 0;
    try {
      value = std::stol(given, &used);
    } catch (const std::exception&) {
      return "";
    }
    return used == given.size() ? std::to_string(value) : "";
  }
  std::string bad;
  const std::string picked = letters(given, bad);
  if (!bad.empty() || picked.empty() || (q.kind == Kind::kChoice && picked.size() > 1)) return "";
  return picked;
}

bool is_answer(const Question& q, const std::string& answer) {
  return !q.hash.empty() && sha256_hex(q.salt + ":" + std::to_string(q.number) + ":" + answer) == q.hash;
}

int model_answer(const Question& q) {
  const AccessCost cost = price(q.access);
  if (q.measure == Measure::kWavefronts) return cost.wavefronts;
  return static_cast<int>(q.access.offsets[0] / kHopper.bank_width_bytes % kHopper.banks);
}

std::string banksim_command(const Question& q) {
  const WarpAccess& a = q.access;
  std::string command = "banksim --width " + std::to_string(a.width_bytes);
  if (a.op == MemOp::kStore) command += " --op st";
  // A stride over the active lanes when there is one, else the 32 offsets.
  std::vector<int> active;
  for (int l = 0; l < kWarpSize; ++l) {
    if (a.active(l)) active.push_back(l);
  }
  std::int64_t step = 0;
  if (active.size() > 1) step = (a.offsets[active[1]] - a.offsets[active[0]]) / (active[1] - active[0]);
  const std::int64_t base = active.empty() ? 0 : a.offsets[active[0]] - step * active[0];
  bool strided = !active.empty() && step % a.width_bytes == 0 && base >= 0;
  for (int l : active) strided = strided && a.offsets[l] == base + step * l;
  if (strided) {
    command += " --stride " + std::to_string(step / a.width_bytes);
    if (base != 0) command += " --base " + std::to_string(base);
    if (active.size() != kWarpSize) {
      std::string lanes = format_lanes(a.active_mask());
      std::replace(lanes.begin(), lanes.end(), ' ', ',');
      command += " --lanes " + lanes;
    }
    return command;
  }
  command += " --offsets \"";
  for (int l = 0; l < kWarpSize; ++l) {
    command += (l == 0 ? "" : " ") + (a.active(l) ? std::to_string(a.offsets[l]) : std::string("-"));
  }
  return command + "\"";
}

std::string answers_template() {
  std::ostringstream out;
  out << "# BankLab quiz, a self-check: write each answer after its number, then run\n"
         "#     build/grader/grader --lab quiz\n"
         "# A letter (a to d) where there are choices, every right letter where it says\n"
         "# so (\"a c\"), a whole number where it asks for one. Lines starting with # are\n"
         "# comments. The handouts (handouts/) and banksim answer every question.\n";
  std::string part;
  for (const Question& q : questions()) {
    if (q.part != part) {
      part = q.part;
      out << "\n# ==== " << part << " ====\n";
    }
    out << "\n" << wrap(std::to_string(q.number) + ". " + q.text, "# ");
    for (const std::string& c : q.choices) out << "#     " << c << "\n";
    out << q.number << ":\n";
  }
  return out.str();
}

namespace {

bool names_chinese(const std::string& path) {
  const std::string suffix = ".zh.txt";
  return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool holds_han(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t code = 0;
    i += utf8_at(text, i, code);
    if (is_han(code)) return true;
  }
  return false;
}

Language language_of(const std::string& path, const std::vector<std::string>& lines) {
  if (names_chinese(path)) return Language::kChinese;
  for (const std::string& line : lines) {
    const std::string text = trim(line);
    if (!text.empty() && text[0] == '#' && holds_han(text)) return Language::kChinese;
  }
  return Language::kEnglish;
}

bool read_lines(const std::string& path, std::vector<std::string>& lines) {
  std::ifstream in(path);
  if (!in) return false;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // A UTF-8 byte order mark (Notepad writes one) is no part of the first line.
  if (!lines.empty() && lines[0].rfind("\xEF\xBB\xBF", 0) == 0) lines[0].erase(0, 3);
  return true;
}

}  // namespace

Language sheet_language(const std::string& path) {
  std::vector<std::string> lines;
  read_lines(path, lines);
  return language_of(path, lines);
}

std::map<int, std::string> read_answers(const std::string& path) {
  std::vector<std::string> lines;
  if (!read_lines(path, lines)) {
    throw AnswersError(path + (names_chinese(path) ? ": 无法读取答卷文件（路径对吗？）"
                                                   : ": cannot read the answers file (is the path right?)"));
  }
  const bool zh = language_of(path, lines) == Language::kChinese;
  const std::string count = std::to_string(questions().size());
  std::map<int, std::string> answers;
  std::map<int, int> line_of;
  for (int n = 1; n <= static_cast<int>(lines.size()); ++n) {
    const std::string text = trim(lines[n - 1]);
    if (text.empty() || text[0] == '#') continue;
    const auto colon = text.find(':');
    std::string label = trim(text.substr(0, colon == std::string::npos ? 0 : colon));
    if (!label.empty() && (label[0] == 'Q' || label[0] == 'q')) label.erase(0, 1);
    const bool numeric = !label.empty() && std::all_of(label.begin(), label.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    const std::string where = path + ":" + std::to_string(n) + ": ";
    if (colon == std::string::npos || !numeric) {
      throw AnswersError(where + (zh ? "无法读取“" + text + "”：请写题号、英文冒号和答案，例如“3: 13”（注释以 # 开头）"
                                     : "cannot read \"" + text + "\": write the question's number, a colon and the " +
                                           "answer, like \"3: 13\" (comments start with #)"));
    }
    // A label too long for an int is no question either.
    const int number = label.size() > 6 ? 0 : std::stoi(label);
    if (number < 1 || number > static_cast<int>(questions().size())) {
      throw AnswersError(where + (zh ? "没有第 " + label + " 题（测验只有第 1 到第 " + count + " 题）"
                                     : "there is no question " + label + " (the quiz has questions 1 to " + count +
                                           ")"));
    }
    if (line_of.count(number)) {
      const std::string other = std::to_string(line_of[number]);
      throw AnswersError(where + (zh ? "第 " + label + " 题答了两次（另一次在第 " + other + " 行）：只保留一个答案"
                                     : "question " + label + " is answered twice (also on line " + other +
                                           "): keep one answer"));
    }
    line_of[number] = n;
    answers[number] = trim(text.substr(colon + 1));
  }
  return answers;
}

std::string sheet_to_grade(const std::string& source_dir, bool solutions) {
  if (solutions) return source_dir + "/solutions/quiz/answers.txt";
  const auto answered = [](const std::string& path) {
    try {
      const auto answers = read_answers(path);
      return std::any_of(answers.begin(), answers.end(), [](const auto& a) { return !a.second.empty(); });
    } catch (const AnswersError&) {
      return true;
    }
  };
  const std::string english = source_dir + "/labs/quiz/answers.txt";
  const std::string chinese = source_dir + "/labs/quiz/answers.zh.txt";
  return !answered(english) && std::ifstream(chinese) && answered(chinese) ? chinese : english;
}

Rubric rubric() {
  Rubric r;
  r.lab = 0;
  r.title = "quiz";
  for (const Question& q : questions()) {
    if (std::find(r.parts.begin(), r.parts.end(), q.part) == r.parts.end()) r.parts.push_back(q.part);
    Check c;
    c.name = "Q" + std::to_string(q.number) + " " + q.title;
    c.part = q.part;
    c.points = 1;
    r.checks.push_back(std::move(c));
  }
  return r;
}

GradeResult grade(const Rubric& rubric, const std::map<int, std::string>& answers, const std::string& path) {
  return grade(rubric, answers, path, sheet_language(path));
}

GradeResult grade(const Rubric& rubric, const std::map<int, std::string>& answers, const std::string& path,
                  Language language) {
  GradeResult result;
  result.rubric = &rubric;
  result.implementation = path;
  for (std::size_t i = 0; i < rubric.checks.size(); ++i) {
    CheckResult r;
    r.check = &rubric.checks[i];
    r.outcome = judge(questions()[i], answers, language);
    r.score = r.outcome.status == Status::kPass ? r.check->points : 0;
    result.score += r.score;
    result.max_score += r.check->points;
    result.results.push_back(std::move(r));
  }
  return result;
}

}  // namespace banklab::grader::quiz
