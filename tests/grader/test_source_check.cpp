// The syntax-tree source check (grader/src/ast_check.cpp) on its own: every
// legitimate lab file of the repository passes it, each rule refuses a
// small hostile snippet at the expected line, and each kind of wrong
// declaration of a stage's contract gets its message; then, through the
// grader, a declaration mistake loses exactly the checks that need it.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "ast_check.hpp"
#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;
using banklab::grader::AstResult;
using banklab::grader::check_ast;
using banklab::grader::contract_for;

const std::string kSource = BANKLAB_SOURCE_DIR;

std::vector<std::string> kit_dirs() {
  std::vector<std::string> dirs;
  std::string all = BANKLAB_KERNEL_INCLUDE_DIRS, part;
  std::istringstream in(all);
  while (std::getline(in, part, '|')) dirs.push_back(part);
  return dirs;
}

AstResult check_file(const std::string& path, int lab = 0) {
  return check_ast(path, kit_dirs(), {"-include", "banklab/cuda_host.hpp"}, lab ? contract_for(lab) : nullptr);
}

// A snippet as a lab file of its own (stage 3's folder name is irrelevant).
AstResult check_text(const std::string& name, const std::string& code, int lab = 0) {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "source_check";
  fs::create_directories(dir);
  const fs::path file = dir / name;
  std::ofstream(file) << code;
  return check_file(file.string(), lab);
}

std::string findings(const AstResult& r) {
  std::string out = r.parse_error;
  for (const auto& f : r.refused) out += "\n" + f.file + ":" + std::to_string(f.line) + ": " + f.what;
  return out;
}

}  // namespace

TEST_CASE("every lab file of the repository (solutions, skeletons, right and wrong tests) passes the source check") {
  std::vector<fs::path> files;
  for (const char* folder : {"solutions", "labs"}) {
    for (const auto& e : fs::recursive_directory_iterator(kSource + "/" + folder)) {
      // Stage 6's programs are whole programs that include the lab file, not lab files.
      if (e.path().extension() == ".cu" && e.path().parent_path().filename() != "programs") files.push_back(e.path());
    }
  }
  for (int lab = 1; lab <= 6; ++lab) {
    for (const char* kind : {"right", "wrong"}) {
      const fs::path dir = kSource + "/tests/grader/lab0" + std::to_string(lab) + "/" + kind;
      if (!fs::exists(dir)) continue;
      for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().extension() == ".cu") files.push_back(e.path());
      }
    }
  }
  REQUIRE(files.size() >= 60);
  for (const auto& file : files) {
    // The stage from the folder name (01-..., lab01), for its contract.
    int lab = 0;
    for (const auto& part : file) {
      const std::string p = part.string();
      if (p.size() > 3 && p.rfind("lab0", 0) == 0) lab = p[4] - '0';
      if (p.size() > 3 && p[0] == '0' && p[2] == '-') lab = p[1] - '0';
    }
    const AstResult r = check_file(file.string(), lab);
    INFO(file.string() << findings(r));
    CHECK(r.parsed);
    CHECK(r.refused.empty());
    // Wrong files are wrong in behaviour; their declarations are right.
    // (Skeletons and solutions alike.)
    // (printf_braces.cu predates stage 3's predictions: test_grader expects
    // its two predictions to fail.)
    std::map<std::string, std::string> problems = r.declaration_problems;
    if (file.filename() == "printf_braces.cu") CHECK(problems.erase("predicted_wavefronts") == 1);
    // Stage 6's shipped kernels have no diagnosis: the grader builds them as a
    // lab file of their own (the diagnosis key), with the contract's fallback.
    if (file.filename() == "original.cu") CHECK(problems.erase("diagnosis") == 1);
    for (const auto& [item, problem] : problems) INFO(item << ": " << problem);
    CHECK(problems.empty());
  }
}

TEST_CASE("each rule of the source check refuses a small hostile snippet, at its line") {
  struct Case {
    const char* name;
    const char* code;
    int line;
    const char* reason;
  };
  const Case cases[] = {
      {"main.cu", "__global__ void k(int* p) { p[0] = 1; }\nint main() { return 0; }\n", 2, "main: a lab file has no main"},
      {"host_helper.cu", "int helper(int x) { return x + 1; }\n", 1, "helper is a host function"},
      {"static_ctor.cu", "struct S { S() {} };\n\nS s;\n", 1, "S is a host function"},
      {"dynamic_init.cu", "__device__ int f() { return 3; }\nint value = f();\n", 2,
       "value is initialised by code that runs when the program starts"},
      {"destructor.cu", "struct D { __device__ ~D() {} };\nD d;\n", 2, "d has a destructor that runs when the program ends"},
      {"ctor_attribute.cu", "__device__ void early() {}\n__attribute__((constructor)) void run() {}\n", 2,
       "the attribute `constructor` is not allowed"},
      {"section.cu", "__device__ void f() {}\n__attribute__((section(\".preinit_array\"), used)) void (*const e)() = f;\n",
       2, "the attribute `section` is not allowed"},
      {"hidden_attribute.cu", "#define KEEP __attribute__((__used__))\n__device__ KEEP int x = 1;\n", 1,
       "the attribute `used` is not allowed"},
      {"glibc_macro.cu", "#include <cstdio>\n__device__ int f() __attribute_used__;\n__device__ int f() { return 1; }\n", 2,
       "the attribute `used` is not allowed"},
      {"weak_pragma.cu", "__device__ int f() { return 1; }\n#pragma weak g = f\n", 2, "#pragma weak is not allowed"},
      // GCC's and clang's own pragmas change the code made (optimisation,
      // attributes on every function); only their diagnostic pragmas pass.
      {"gcc_optimize.cu", "#pragma GCC optimize(\"O0\")\n__global__ void k(int* p) { p[0] = 1; }\n", 1,
       "#pragma GCC optimize is not allowed"},
      {"push_options.cu", "__global__ void k(int* p) { p[0] = 1; }\n#pragma GCC push_options\n", 2,
       "#pragma GCC push_options is not allowed"},
      {"clang_attribute.cu",
       "#pragma clang attribute push (__attribute__((annotate(\"x\"))), apply_to = function)\n__device__ void f() {}\n"
       "#pragma clang attribute pop\n",
       1, "#pragma clang attribute is not allowed"},
      {"asm.cu", "__global__ void k(int* p) {\n  asm volatile(\"\" ::: \"memory\");\n  p[0] = 1;\n}\n", 2,
       "an asm statement"},
      // Every spelling GCC and clang take for it.
      {"asm_underscores.cu", "__global__ void k(int* p) {\n  p[0] = 1;\n  __asm volatile(\"\" ::: \"memory\");\n}\n", 3,
       "an asm statement"},
      {"asm_plain_underscores.cu", "__device__ void f() {\n  __asm(\"nop\");\n}\n", 2, "an asm statement"},
      {"asm_both_underscores.cu", "__device__ void f() {\n\n  __asm__ __volatile__(\"\");\n}\n", 3,
       "an asm statement"},
      // Outside any function, where the syntax tree has no asm statement: an
      // asm label renaming a function's symbol, and file-scope assembly.
      {"asm_label.cu", "__device__ int f() __asm(\"g\");\n__device__ int f() { return 1; }\n", 1,
       "an asm statement"},
      {"asm_label_plain.cu", "\n__device__ int f() asm(\"g\");\n__device__ int f() { return 1; }\n", 2,
       "an asm statement"},
      {"asm_file_scope.cu", "__device__ int f() { return 1; }\n__asm(\".globl xyz\");\n", 2, "an asm statement"},
      {"int_to_pointer.cu", "__global__ void k(long a) {\n  int* p = (int*)a;\n  *p = 1;\n}\n", 2,
       "a cast from an integer to a pointer"},
      {"reinterpret.cu", "__global__ void k(unsigned long a) { *reinterpret_cast<int*>(a) = 1; }\n", 1,
       "a cast from an integer to a pointer"},
      {"function_pointer.cu", "__global__ void k(int* p) {\n  auto f = (void (*)(int*))p;\n  f(p);\n}\n", 2,
       "a cast to a function pointer"},
      {"pointer_union.cu", "union U { long i; int* p; };\n__global__ void k(U u) { *u.p = 1; }\n", 1,
       "a union with a pointer member"},
      {"fopen.cu", "#include <cstdio>\n__global__ void k() {\n  std::fopen(\"/tmp/x\", \"w\");\n}\n", 3,
       "calls fopen from the C or C++ library"},
      {"getenv.cu", "#include <cstdlib>\n__global__ void k(char* out) { out[0] = *std::getenv(\"HOME\"); }\n", 2,
       "calls getenv from the C or C++ library"},
      {"syscall.cu", "#include <unistd.h>\n#include <sys/syscall.h>\n__global__ void k() { syscall(39); }\n", 3,
       "calls syscall from the C or C++ library"},
      {"dlsym.cu", "#include <dlfcn.h>\n__global__ void k() { dlsym(nullptr, \"x\"); }\n", 2, "calls dlsym"},
      {"own_prototype.cu", "extern \"C\" __device__ long write(int, const void*, unsigned long);\n"
                           "__global__ void k() { write(1, \"x\", 1); }\n", 2,
       "calls write, which the file declares but does not define"},
      {"function_address.cu", "#include <cstdlib>\n__global__ void k() {\n  auto f = &std::abort;\n  f();\n}\n", 3,
       "calls abort from the C or C++ library"},
      {"ifstream.cu", "#include <fstream>\n__global__ void k() {\n  std::ifstream in(\"/etc/passwd\");\n}\n", 3,
       "uses the type std::ifstream"},
      {"environ.cu", "#include <unistd.h>\n__global__ void k(char* out) { out[0] = environ[0][0]; }\n", 2,
       "uses environ, a variable of the C or C++ library"},
      {"extern_variable.cu", "extern char** environ;\n__global__ void k(char* out) { out[0] = environ[0][0]; }\n", 1,
       "declares `extern environ` without defining it"},
      {"frame_address.cu", "__global__ void k(void** out) { out[0] = __builtin_frame_address(0); }\n", 1,
       "calls the compiler builtin __builtin_frame_address"},
      {"emulator_internals.cu", "__global__ void k(int* p) { p[0] = banklab::emu::detail::lane_id(); }\n", 1,
       "a part of the emulator, not of CUDA's device API"},
      {"new.cu", "__global__ void k(int** p) { p[0] = new int[4]; }\n", 1, "new and delete allocate memory"},
      {"no_sanitize.cu", "__attribute__((no_sanitize(\"thread\"))) __global__ void k(int* p) { p[0] = 1; }\n", 1,
       "the attribute `no_sanitize` is not allowed"},
      // `constexpr` spelled in the text but not in the code compiled: the
      // constructor runs when the program starts.
      {"constexpr_swallowed.cu", "#define NOT(x)\nstruct S {\n  inline __host__ __device__ S() NOT(constexpr) { printf(\"x\"); }\n};\nS s;\n", 5,
       "s is initialised by code that runs when the program starts"},
      {"constexpr_if0.cu", "struct S {\n  inline __host__ __device__ S()\n#if 0\n  constexpr\n#endif\n  { printf(\"x\"); }\n};\nS s;\n", 8,
       "s is initialised by code that runs when the program starts"},
      {"constexpr_macro.cu", "#define constexpr\nstruct S {\n  constexpr __host__ __device__ S() { printf(\"x\"); }\n};\nS s;\n", 5,
       "s is initialised by code that runs when the program starts"},
  };
  for (const Case& c : cases) {
    const AstResult r = check_text(c.name, c.code);
    INFO(c.name << findings(r));
    REQUIRE(r.parsed);
    REQUIRE(!r.refused.empty());
    bool found = false;
    for (const auto& f : r.refused) {
      if (f.line == c.line && f.what.find(c.reason) != std::string::npos && f.file == c.name && !f.todo.empty())
        found = true;
    }
    CHECK(found);
  }
}

TEST_CASE("every attribute that places code where the program runs it by itself, or changes what the linker sees, is refused at its line") {
  // One snippet per attribute (the second line uses it on a function or a
  // variable the first line's kernel does not need).
  const std::pair<const char*, const char*> uses[] = {
      {"section", "__attribute__((section(\".init_array\"))) int x = 1;"},
      {"constructor", "__attribute__((constructor)) void early() {}"},
      {"destructor", "__attribute__((destructor)) void late() {}"},
      {"ifunc", "extern \"C\" void* pick() { return nullptr; }\nvoid chosen() __attribute__((ifunc(\"pick\")));"},
      {"alias", "extern \"C\" __device__ int real() { return 1; }\nextern \"C\" __device__ int other() __attribute__((alias(\"real\")));"},
      {"weak", "__attribute__((weak)) __device__ int w() { return 1; }"},
      {"weakref", "extern \"C\" __device__ int target();\nstatic __device__ int r() __attribute__((weakref(\"target\")));"},
      {"used", "__attribute__((used)) __device__ int u() { return 1; }"},
      {"retain", "__attribute__((retain, used)) __device__ int kept() { return 1; }"},
      {"visibility", "__attribute__((visibility(\"default\"))) __device__ int v() { return 1; }"},
      {"init_priority", "struct P { constexpr P() {} };\n__attribute__((init_priority(200))) P p;"},
      {"externally_visible", "__attribute__((externally_visible)) __device__ int e() { return 1; }"},
      {"symver", "__attribute__((symver(\"sym@VER_1\"))) __device__ int sv() { return 1; }"},
      {"target_clones", "__attribute__((target_clones(\"avx2\", \"default\"))) int tc() { return 1; }"},
      {"naked", "__attribute__((naked)) void bare() {}"},
      {"no_sanitize", "__attribute__((no_sanitize(\"thread\"))) __device__ int ns() { return 1; }"},
      {"no_sanitize_thread", "__attribute__((no_sanitize_thread)) __device__ int nst() { return 1; }"},
      {"no_sanitize_address", "__attribute__((no_sanitize_address)) __device__ int nsa() { return 1; }"},
      {"no_sanitize_undefined", "__attribute__((no_sanitize_undefined)) __device__ int nsu() { return 1; }"},
      {"disable_sanitizer_instrumentation",
       "__attribute__((disable_sanitizer_instrumentation)) __device__ int dsi() { return 1; }"},
      {"no_instrument_function", "__attribute__((no_instrument_function)) __device__ int nif() { return 1; }"},
      {"cleanup", "__device__ void done(int*) {}\n__global__ void c(int* p) {\n  __attribute__((cleanup(done))) int v = p[0];\n  p[1] = v;\n}"},
  };
  for (const auto& [name, use] : uses) {
    const std::string attribute = name;
    const std::string code = std::string("__global__ void k(int* p) { p[0] = 1; }\n") + use + "\n";
    const AstResult r = check_text(attribute + ".cu", code);
    INFO(attribute << ":\n" << code << findings(r));
    const std::string reason = "the attribute `" + attribute + "` is not allowed";
    // The attribute's line: the line of the snippet that names it.
    const auto at = static_cast<std::ptrdiff_t>(code.find("((" + attribute));
    REQUIRE(at > 0);
    const int line = 1 + static_cast<int>(std::count(code.begin(), code.begin() + at, '\n'));
    bool found = false;
    for (const auto& f : r.refused) found = found || (f.line == line && f.what.find(reason) != std::string::npos);
    CHECK(found);
  }
}

TEST_CASE("what lab files use passes: templates, __align__, __restrict__, half, float4, #pragma unroll and diagnostic, math, limits") {
  const AstResult ok = check_text("allowed.cu", R"(#include <cstdint>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include <cassert>
#include <cstdio>
#include <cuda_fp16.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma clang diagnostic ignored "-Wunused-variable"
constexpr int kTile = 32;
const float kScale = 0.5f;
enum Mode { kFast, kSlow };
struct __align__(16) Pair { float a, b, c, d; };
static_assert(sizeof(Pair) == 16, "four floats");
__constant__ float weights[4] = {1, 2, 3, 4};
__device__ int counter;
__shared__ float file_tile[32];
template <class T>
__device__ T twice(T x) { return x + x; }
template <int N>
__global__ void k(float* __restrict__ out, const float4* __restrict__ in, half* h, std::uint32_t n) {
  __shared__ float tile[kTile][kTile + 1];
  extern __shared__ float dynamic[];
  #pragma unroll
  for (int i = 0; i < N; ++i) tile[threadIdx.y][i] = in[i].x;
  __syncthreads();
  float v = sqrtf(tile[0][threadIdx.x]) + std::fabs(-1.0f) + fminf(1.0f, 2.0f) + std::numeric_limits<float>::epsilon();
  int a = 1, b = 2;
  std::swap(a, b);
  v += std::min(a, b) + max(a, b) + twice(v) + __popc(n) + __shfl_sync(0xffffffffu, v, 0);
  auto add = [](float x, float y) { return x + y; };
  v = add(v, static_cast<float>(std::is_same<Pair, int>::value));
  assert(n > 0);
  if (n == 7) printf("v = %f\n", v);
  h[0] = __float2half(v * kScale * weights[0]);
  out[threadIdx.x] = v + dynamic[0] + file_tile[0] + static_cast<float>(reinterpret_cast<std::uintptr_t>(out) % 16);
  float* none = (float*)0;
  (void)none;
}
int predicted_wavefronts[2] = {32, 1};
#pragma GCC diagnostic pop
)",
                                  3);
  INFO(findings(ok));
  CHECK(ok.parsed);
  CHECK(ok.refused.empty());
  CHECK(ok.declaration_problems.count("transpose_padded") == 1);  // this file has no kernel of stage 3
  CHECK(ok.declaration_problems.count("predicted_wavefronts") == 0);
}

TEST_CASE("cooperative groups, device constructors, operators, aggregates and constexpr tables pass") {
  for (const auto& [name, code] : std::vector<std::pair<std::string, std::string>>{{"alt.cu", R"(#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cstdint>
namespace cg = cooperative_groups;
struct Acc {
  float sum;
  __device__ Acc() : sum(0) {}
  __device__ void add(float v) { sum += v; }
};
struct Plain { float a, b; };
__device__ __forceinline__ int lane() { return threadIdx.x & 31; }
__global__ void __launch_bounds__(256) k(float* out, const float* __restrict__ in, int n) {
  __shared__ Plain tile[64];
  __shared__ float4 quad[32];
  cg::thread_block block = cg::this_thread_block();
  Acc acc;
  #pragma unroll 4
  for (int i = 0; i < 4; ++i) acc.add(__ldg(&in[i]));
  tile[lane()].a = acc.sum;
  quad[0] = make_float4(1, 2, 3, 4);
  block.sync();
  auto warp = cg::tiled_partition<32>(block);
  float v = warp.shfl_down(acc.sum, 1);
  atomicAdd(out, v + tile[0].a + quad[0].x);
  half h = __float2half(1.0f);
  out[1] = __half2float(__hadd(h, h)) + fmaxf(0.f, 1.f) + __fdividef(1.f, 2.f) + static_cast<float>(__clz(n));
  out[2] = min(n, 3) + static_cast<float>(static_cast<std::uint32_t>(n) >> 1);
}
)"},
                                                                                   {"alt2.cu", R"(struct Plain { float a, b; };
__device__ Plain operator+(Plain x, Plain y) { return {x.a + y.a, x.b + y.b}; }
__device__ Plain table[2] = {{1, 2}, {3, 4}};
__constant__ float4 c4 = {1, 2, 3, 4};
__constant__ int offsets[4] = {0, 1, 2, 3};
constexpr int kTable[4] = {0, 4, 8, 12};
static constexpr float kHalf = 0.5f;
struct Pair { int a; constexpr __host__ __device__ Pair(int x) : a(x) {} };
__device__ Pair pair_value(3);
namespace detail { __device__ int twice(int x) { return 2 * x; } }
template <typename T> struct Vec { T x; __device__ T get() const { return x; } };
__global__ void k(float* out) {
  Plain p = table[0] + table[1];
  Vec<float> v{p.a};
  out[0] = v.get() + c4.x + offsets[1] + kTable[2] + kHalf + detail::twice(3);
}
int predicted_wavefronts[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
)"}}) {
    const AstResult r = check_text(name, code);
    INFO(name << findings(r));
    CHECK(r.parsed);
    CHECK(r.refused.empty());
  }
}

TEST_CASE("each kind of wrong declaration of the contract gets its message") {
  const std::string kernel = "__global__ void transpose_padded(float* out, const float* in, int width, int height) {}\n";
  struct Case {
    std::string code;
    const char* item;
    const char* message;
  };
  const Case cases[] = {
      {kernel, "predicted_wavefronts", "the file has no array `predicted_wavefronts`: declare `int predicted_wavefronts[2]`"},
      {kernel + "const int predicted_wavefronts[2] = {32, 1};\n", "predicted_wavefronts",
       "is const (line 2): the grader cannot read a const array; declare `int predicted_wavefronts[2]` at file scope, not const"},
      {kernel + "constexpr int predicted_wavefronts[2] = {32, 1};\n", "predicted_wavefronts", "is const (line 2)"},
      {kernel + "static int predicted_wavefronts[2] = {32, 1};\n", "predicted_wavefronts", "is static"},
      {kernel + "int predicted_wavefronts[1] = {32};\n", "predicted_wavefronts",
       "is `int[1]` (line 2), not `int[2]`: declare `int predicted_wavefronts[2]` at file scope"},
      {kernel + "int predicted_wavefronts[] = {32};\n", "predicted_wavefronts", "not `int[2]`"},
      {kernel + "float predicted_wavefronts[2] = {32, 1};\n", "predicted_wavefronts", "not `int[2]`"},
      {kernel + "extern int predicted_wavefronts[2];\n", "predicted_wavefronts", "is declared but not defined"},
      {"int predicted_wavefronts[2] = {32, 1};\n", "transpose_padded", "the file has no kernel `transpose_padded`"},
      {"static " + kernel + "int predicted_wavefronts[2] = {32, 1};\n", "transpose_padded", "is static"},
      {"inline " + kernel + "int predicted_wavefronts[2] = {32, 1};\n", "transpose_padded", "is inline or constexpr"},
      {"__device__ void transpose_padded(float* out, const float* in, int width, int height) {}\n"
       "int predicted_wavefronts[2] = {32, 1};\n",
       "transpose_padded", "is not a kernel"},
      {"__global__ void transpose_padded(float* out, float* in, int width, int height) {}\n"
       "int predicted_wavefronts[2] = {32, 1};\n",
       "transpose_padded", "has the type `void (float *, float *, int, int)` (line 1), not `void (float *, const float *, int, int)`"},
      {"__global__ void transpose_padded(float* out, const float* in, int width, int height);\n"
       "int predicted_wavefronts[2] = {32, 1};\n",
       "transpose_padded", "is declared but not defined"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const AstResult r = check_text("declaration_" + std::to_string(i++) + ".cu", c.code, 3);
    INFO(c.code << findings(r));
    REQUIRE(r.parsed);
    CHECK(r.refused.empty());
    REQUIRE(r.declaration_problems.count(c.item) == 1);
    INFO(r.declaration_problems.at(c.item));
    CHECK(r.declaration_problems.at(c.item).find(c.message) != std::string::npos);
    CHECK(r.declaration_problems.size() == 1);
  }
  // Stage 1's functions: inline, constexpr, a missing qualifier.
  const std::string solution = kSource + "/solutions/01-bank-mapping/bank_mapping.cu";
  std::ifstream in(solution);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [from, to, message] : std::vector<std::array<std::string, 3>>{
           {"__host__ __device__ int word_of(", "__host__ __device__ constexpr int word_of(", "is inline or constexpr"},
           {"__host__ __device__ int bank_of(", "__device__ int bank_of(", "lacks a qualifier"},
           {"__host__ __device__ int puzzle_bytes(", "static __host__ __device__ int puzzle_bytes(", "is static"}}) {
    std::string changed = text;
    changed.replace(changed.find(from), from.size(), to);
    const AstResult r = check_text("bank_mapping.cu", changed, 1);
    INFO(to << findings(r));
    REQUIRE(r.parsed);
    CHECK(r.refused.empty());
    REQUIRE(r.declaration_problems.size() == 1);
    CHECK(r.declaration_problems.begin()->second.find(message) != std::string::npos);
  }
}

namespace {

struct Graded {
  int status = -1;
  nlohmann::json report;
};

Graded grade(int lab, const std::string& file) {
  const auto r = banklab::test::run_command(std::string(GRADER_PATH) + " --lab " + std::to_string(lab) + " --impl " +
                                            file + " --backend cpu --seed 1 --time-limit 10 --format json 2>/dev/null");
  Graded g;
  g.status = r.status;
  INFO(r.out);
  if (!r.out.empty()) g.report = nlohmann::json::parse(r.out);
  return g;
}

// The solution of a stage with text replaced, as a file of its own.
std::string changed_solution(const std::string& folder, const std::string& file,
                             const std::vector<std::pair<std::string, std::string>>& edits, const std::string& tag) {
  std::ifstream in(kSource + "/solutions/" + folder + "/" + file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), to);
  }
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "declarations" / tag;
  fs::create_directories(dir);
  std::ofstream(dir / file) << text;
  return (dir / file).string();
}

// Every check of the report whose name begins with one of `prefixes` fails
// with `message`; every other check passes (or is skipped: GPU only).
void only_these_fail(const nlohmann::json& report, const std::vector<std::string>& prefixes, const std::string& message) {
  int failed = 0;
  for (const auto& c : report["checks"]) {
    const std::string name = c["name"];
    bool needs = false;
    for (const auto& p : prefixes) needs = needs || name.rfind(p, 0) == 0;
    INFO(name << ": " << c["status"] << " " << c["output"]);
    if (c["status"] == "skip") continue;
    if (needs) {
      CHECK(c["status"] == "fail");
      CHECK(c["output"].get<std::string>().find(message) != std::string::npos);
      ++failed;
    } else {
      CHECK(c["status"] == "pass");
    }
  }
  CHECK(failed > 0);
}

}  // namespace

TEST_CASE("stage 1: a const prediction array and an inline word_of lose exactly their checks, with the message") {
  const std::string file = changed_solution("01-bank-mapping", "bank_mapping.cu",
                                            {{"int predicted_wavefronts[10]", "const int predicted_wavefronts[10]"},
                                             {"__host__ __device__ int word_of(", "__host__ __device__ inline int word_of("}},
                                            "lab01");
  const Graded g = grade(1, file);
  REQUIRE(g.status == 1);
  only_these_fail(g.report, {"prediction", "word_of"}, "");
  for (const auto& c : g.report["checks"]) {
    const std::string name = c["name"];
    if (name.rfind("prediction", 0) == 0)
      CHECK(c["output"].get<std::string>().find("declare `int predicted_wavefronts[10]` at file scope, not const") !=
            std::string::npos);
    if (name.rfind("word_of", 0) == 0)
      CHECK(c["output"].get<std::string>().find("not inline or constexpr") != std::string::npos);
  }
}

TEST_CASE("stage 1: each puzzle function declared inline loses its own puzzle's check and no other (puzzle 1 is not puzzle 10)") {
  // The lab file's ten puzzle functions, in the order of the rubric's checks
  // ("puzzle N, ..."); the GPU-only "puzzle loads ..." check is skipped here.
  const std::array<const char*, 10> puzzles = {"conflict_free", "broadcast",           "multicast",
                                               "two_way",       "four_way",            "thirty_two_way",
                                               "one_bank_four_words", "bytes",         "halves",
                                               "partial_warp"};
  for (std::size_t n = 0; n < puzzles.size(); ++n) {
    const std::string function = std::string("puzzle_") + puzzles[n];
    CAPTURE(function);
    const std::string file = changed_solution(
        "01-bank-mapping", "bank_mapping.cu",
        {{"__host__ __device__ int " + function + "(", "__host__ __device__ inline int " + function + "("}},
        "lab01-" + function);
    const Graded g = grade(1, file);
    REQUIRE(g.status == 1);
    only_these_fail(g.report, {"puzzle " + std::to_string(n + 1) + ", "}, "`" + function + "` is inline or constexpr");
    CHECK(g.report["score"] == 86);
  }
}

TEST_CASE("stage 2: a short prediction array is never read, and a static kernel loses only its own checks") {
  const std::string file = changed_solution(
      "02-stride-gcd", "stride.cu",
      {{"int predicted_wavefronts[10] = {1, 2, kP3, kP4, kP5, 1, 1, 8, 2, kP10};", "int predicted_wavefronts[2] = {1, 2};"},
       {"__global__ void transpose16(", "static __global__ void transpose16("}},
      "lab02");
  const Graded g = grade(2, file);
  REQUIRE(g.status == 1);
  only_these_fail(g.report, {"prediction", "transpose16"}, "");
  for (const auto& c : g.report["checks"]) {
    const std::string name = c["name"];
    if (name.rfind("prediction", 0) == 0)
      CHECK(c["output"].get<std::string>().find("`predicted_wavefronts` is `int[2]` (line 248), not `int[10]`") !=
            std::string::npos);
    if (name.rfind("transpose16", 0) == 0 && c["status"] != "skip")
      CHECK(c["output"].get<std::string>().find("`transpose16` is static") != std::string::npos);
  }
}

TEST_CASE("stage 3: a missing prediction array loses the two predictions with the declaration to write") {
  const std::string file = changed_solution(
      "03-padded-transpose", "transpose.cu", {{"int predicted_wavefronts[2] = {kP1Wavefronts, kP2Wavefronts};", ""}},
      "lab03");
  const Graded g = grade(3, file);
  REQUIRE(g.status == 1);
  only_these_fail(g.report, {"prediction"}, "declare `int predicted_wavefronts[2]` at file scope");
  CHECK(g.report["score"] == 80);
}

TEST_CASE("stage 4: an inline swizzle loses only the checks that call it from the runner") {
  const std::string file = changed_solution("04-xor-swizzle", "swizzle.cu",
                                            {{"__host__ __device__ int swizzle(", "__host__ __device__ inline int swizzle("}},
                                            "lab04");
  const Graded g = grade(4, file);
  REQUIRE(g.status == 1);
  only_these_fail(g.report, {"swizzle keeps", "swizzle is", "swizzle spreads"}, "`swizzle` is inline or constexpr");
}

TEST_CASE("stage 5: a constexpr prediction array and a static transpose_half lose exactly their checks") {
  const std::string file = changed_solution(
      "05-wide-types", "wide.cu",
      {{"int predicted_wavefronts[10]", "constexpr int predicted_wavefronts[10]"},
       {"__global__ void transpose_half(", "static __global__ void transpose_half("}},
      "lab05");
  const Graded g = grade(5, file);
  REQUIRE(g.status == 1);
  only_these_fail(g.report, {"prediction", "transpose_half"}, "");
  for (const auto& c : g.report["checks"]) {
    const std::string name = c["name"];
    if (name.rfind("prediction", 0) == 0)
      CHECK(c["output"].get<std::string>().find("not const") != std::string::npos);
    if (name.rfind("transpose_half", 0) == 0 && c["status"] != "skip")
      CHECK(c["output"].get<std::string>().find("`transpose_half` is static") != std::string::npos);
  }
}

TEST_CASE("every check a contract item names is a check of its stage's rubric") {
  // A pattern that names no check (a check renamed, the contract not) would
  // leave that check without its declaration message: a wrong declaration
  // would then fail it with a raw build error instead of words.
  const std::array<const char*, 6> files = {"01-bank-mapping/bank_mapping.cu", "02-stride-gcd/stride.cu",
                                            "03-padded-transpose/transpose.cu", "04-xor-swizzle/swizzle.cu",
                                            "05-wide-types/wide.cu", "06-capstone/capstone.cu"};
  for (int lab = 1; lab <= 6; ++lab) {
    CAPTURE(lab);
    const auto* contract = contract_for(lab);
    REQUIRE(contract != nullptr);
    // The CPU report lists every check, the GPU ones as skipped.
    const Graded g = grade(lab, kSource + "/solutions/" + files[lab - 1]);
    REQUIRE(g.report.contains("checks"));
    for (const auto& item : contract->items) {
      for (const std::string& pattern : item.checks) {
        CAPTURE(item.name);
        CAPTURE(pattern);
        bool named = false;
        for (const auto& check : g.report["checks"]) {
          const std::string name = check["name"].get<std::string>();
          named = named || (pattern.back() == '*' ? name.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0
                                                  : name == pattern);
        }
        CHECK(named);
      }
    }
  }
}

TEST_CASE("a file with none of its contract's declarations earns nothing: every check fails with a declaration message") {
  // Every item of the stage's contract renamed away in the reference: the
  // build links the contract's fallbacks (empty functions and kernels,
  // zeroed arrays). Every check of a stage reads some declaration of the
  // contract, so none may pass on the fallbacks (an empty kernel has no
  // race and no conflict), and each must say which declaration is missing.
  // The law does not read the contract's check patterns: a pattern that
  // misses a check is what it catches.
  const std::array<const char*, 6> files = {"01-bank-mapping/bank_mapping.cu", "02-stride-gcd/stride.cu",
                                            "03-padded-transpose/transpose.cu", "04-xor-swizzle/swizzle.cu",
                                            "05-wide-types/wide.cu", "06-capstone/capstone.cu"};
  for (int lab = 1; lab <= 6; ++lab) {
    CAPTURE(lab);
    const auto* contract = contract_for(lab);
    REQUIRE(contract != nullptr);
    std::ifstream in(kSource + "/solutions/" + files[lab - 1]);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const auto& item : contract->items) {
      text = std::regex_replace(text, std::regex("\\b" + item.name + "\\b"), item.name + "_renamed");
    }
    const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "no_declarations" / std::to_string(lab);
    fs::create_directories(dir);
    const fs::path file = dir / fs::path(files[lab - 1]).filename();
    std::ofstream(file) << text;
    const Graded g = grade(lab, file.string());
    REQUIRE(g.report.contains("checks"));
    CHECK(g.report["score"] == 0);
    int graded = 0;
    for (const auto& check : g.report["checks"]) {
      if (check["status"] == "skip") continue;  // GPU checks on the CPU backend
      CAPTURE(check["name"].get<std::string>());
      ++graded;
      CHECK(check["status"] == "fail");
      CHECK(check["score"] == 0);
      CHECK(check.value("output", "").find("at file scope") != std::string::npos);
    }
    CHECK(graded >= 5);
  }
}
