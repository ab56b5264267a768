// The launch rewrite of banklab run: every form of <<<...>>> a program uses,
// lines kept, comments and literals untouched, errors with their line.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "launch_rewrite.hpp"

using banklab::cli::rewrite_launches;

namespace {
long lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }
// The call by name a launch of a named kernel carries (for default arguments).
std::string named(const std::string& kernel) {
  return " | ::banklab::emu::by_name([&](auto&&... banklab_args) -> decltype(" + kernel +
         "(static_cast<decltype(banklab_args)&&>(banklab_args)...)) { " + kernel +
         "(static_cast<decltype(banklab_args)&&>(banklab_args)...); })";
}
}  // namespace

TEST_CASE("a launch becomes the emulator's launch expression, arguments unchanged") {
  const auto r = rewrite_launches("k<<<grid, block>>>(a, b);\n");
  CHECK(r.launches == 1);
  CHECK(r.text == "k | ::banklab::emu::LaunchConfig(grid, block)" + named("k") +
                       " | ::banklab::emu::launch_arguments(a, b);\n");
}

TEST_CASE("template kernels, four-part configurations, nested brackets and line breaks keep their lines") {
  const std::string source =
      "scale<float, 4><<<dim3((n + 255) / 256), dim3(256), 2 * sizeof(float), stream>>>\n"
      "    (x, f(y, z));\n";
  const auto r = rewrite_launches(source);
  CHECK(r.launches == 1);
  CHECK(lines(r.text) == lines(source));
  CHECK(r.text.find("scale<float, 4> | ::banklab::emu::LaunchConfig(dim3((n + 255) / 256), dim3(256), "
                    "2 * sizeof(float), stream)" +
                    named("scale<float, 4>") + " | ::banklab::emu::launch_arguments\n    (x, f(y, z));") !=
        std::string::npos);
}

TEST_CASE("<<< in comments and string literals is left alone") {
  const std::string source =
      "// k<<<1, 1>>>() in a comment\n"
      "/* and k<<<2, 2>>>() here */\n"
      "const char* s = \"k<<<3, 3>>>()\";\n"
      "const char* r = R\"(k<<<4, 4>>>())\";\n"
      "char c = '<';\n";
  const auto r = rewrite_launches(source);
  CHECK(r.launches == 0);
  CHECK(r.text == source);
}

TEST_CASE("two launches on one line and a launch in a loop body") {
  const auto r = rewrite_launches("for (int i = 0; i < 3; ++i) a<<<1, 32>>>(i); b<<<2, 64>>>();\n");
  CHECK(r.launches == 2);
  CHECK(r.text.find("a | ::banklab::emu::LaunchConfig(1, 32)" + named("a") + " | ::banklab::emu::launch_arguments(i);") !=
        std::string::npos);
  CHECK(r.text.find("b | ::banklab::emu::LaunchConfig(2, 64)" + named("b") + " | ::banklab::emu::launch_arguments();") !=
        std::string::npos);
}

TEST_CASE("a launch without its >>> or its arguments is an error naming the line") {
  try {
    rewrite_launches("int x;\nk<<<1, 32(a);\n");
    FAIL("no error");
  } catch (const banklab::cli::RewriteError& e) {
    CHECK(e.line == 2);
    CHECK(std::string(e.what()).find("without its '>>>'") != std::string::npos);
  }
  try {
    rewrite_launches("\n\nk<<<1, 32>>>;\n");
    FAIL("no error");
  } catch (const banklab::cli::RewriteError& e) {
    CHECK(e.line == 3);
    CHECK(std::string(e.what()).find("not followed by its arguments") != std::string::npos);
  }
}

TEST_CASE("cudaLaunchKernel and cudaLaunchCooperativeKernel lose a void* cast of their kernel, lines kept") {
  const std::string source =
      "cudaLaunchKernel((void*)k, g, b, args, 0, s);\n"
      "cudaLaunchCooperativeKernel( (const void *) reduce<256>, g, b, args);\n"
      "cudaLaunchKernel(kernel, g, b, args);\n"
      "my_cudaLaunchKernel((void*)k, g, b, args);\n"
      "cudaLaunchKernel((void**)k, g, b, args);\n";
  const auto r = rewrite_launches(source);
  CHECK(r.launches == 4);
  CHECK(r.text ==
        "cudaLaunchKernel(       k, g, b, args, 0, s);\n"
        "cudaLaunchCooperativeKernel(                reduce<256>, g, b, args);\n"
        "cudaLaunchKernel(kernel, g, b, args);\n"
        "my_cudaLaunchKernel((void*)k, g, b, args);\n"
        "cudaLaunchKernel((void**)k, g, b, args);\n");
}

TEST_CASE("in x.func = (void*)kernel the cast becomes the kit's, which keeps the kernel's type, nothing else changes") {
  const std::string source =
      "params.func = (void*)reduce;\n"
      "p->func=(void *)scale<float>;\n"
      "cudaKernelNodeParams q = {.func = reinterpret_cast<void*>(k)};\n"
      "cudaLaunchKernel(reinterpret_cast<const void*>(k), g, b, args);\n"
      "params . func\n  = (const\nvoid*)k;\n"
      "params.func == (void*)k;\n"
      "funcs.func2 = (void*)k;\n"
      "myfunc = (void*)k;\n"
      "params.func = (void**)k;\n"
      "// params.func = (void*)k;\n";
  const auto r = rewrite_launches(source);
  CHECK(r.launches == 1);       // the cudaLaunchKernel call
  CHECK(r.graph_kernels == 4);  // the four node functions: launches only when a graph runs
  const std::string cast = "::banklab::emu::node_func_cast->*";
  CHECK(r.text ==
        "params.func = " + cast + "reduce;\n"
        "p->func=" + cast + "scale<float>;\n"
        "cudaKernelNodeParams q = {.func = " + cast + "(k)};\n"
        "cudaLaunchKernel(" + std::string(29, ' ') + "(k), g, b, args);\n"  // reinterpret_cast<const void*>: 29
        "params . func\n  = " + cast + "\nk;\n"
        "params.func == (void*)k;\n"
        "funcs.func2 = (void*)k;\n"
        "myfunc = (void*)k;\n"
        "params.func = (void**)k;\n"
        "// params.func = (void*)k;\n");
}

TEST_CASE("preprocessed text: the kit's own headers are left alone and not counted, the program's lines are rewritten") {
  const std::string source =
      "# 1 \"/home/me/prog.cu\"\n"
      "# 1 \"/kit/include/banklab/cuda_launch.hpp\" 1\n"
      "template <class K> int cudaLaunchKernel(K kernel, void** args) { return cudaLaunchKernel(kernel, args); }\n"
      "#pragma GCC diagnostic push\n"
      "int weird = a<<<b;\n"
      "# 5 \"/home/me/prog.cu\" 2\n"
      "#pragma unroll\n"
      "k<<<1, 32>>>(x);\n"
      "cudaLaunchKernel((void*)k, args);\n";
  const auto r = rewrite_launches(source, {"/kit/include", "/kit/compat"});
  CHECK(r.launches == 2);
  CHECK(lines(r.text) == lines(source));
  CHECK(r.text.find("return cudaLaunchKernel(kernel, args); }\n#pragma GCC diagnostic push\nint weird = a<<<b;\n") !=
        std::string::npos);
  CHECK(r.text.find("#pragma unroll\nk | ::banklab::emu::LaunchConfig(1, 32)" + named("k") +
                    " | ::banklab::emu::launch_arguments(x);\n") != std::string::npos);
  CHECK(r.text.find("cudaLaunchKernel(       k, args);") != std::string::npos);
}

TEST_CASE("a launch names its kernel for a call by name only where the kernel is a name: not a member, a pointer's "
          "target or an expression") {
  const auto r = rewrite_launches(
      "ns::k<T><<<1, 1>>>(x);\n"
      "obj.k<<<1, 1>>>(x);\n"
      "(*table[2])<<<1, 1>>>(x);\n"
      "if (ready) go<<<1, 1>>>();\n");
  CHECK(r.launches == 4);
  CHECK(r.text.find("ns::k<T> | ::banklab::emu::LaunchConfig(1, 1)" + named("ns::k<T>")) != std::string::npos);
  CHECK(r.text.find("obj.k | ::banklab::emu::LaunchConfig(1, 1) | ::banklab::emu::launch_arguments(x);") !=
        std::string::npos);
  CHECK(r.text.find("(*table[2]) | ::banklab::emu::LaunchConfig(1, 1) | ::banklab::emu::launch_arguments(x);") !=
        std::string::npos);
  CHECK(r.text.find("if (ready) go | ::banklab::emu::LaunchConfig(1, 1)" + named("go")) != std::string::npos);
}
