// The link check of a lab object (grader/src/link_check.cpp) on objects
// compiled here: a definition in a namespace of the C++ library, the C++
// runtime, the kit or the runner would take the place of theirs and is
// refused, plain functions and const member functions alike, naming what it
// defines; the same code in a namespace of the student's own passes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "builder.hpp"
#include "link_check.hpp"
#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;

// Compiles `code` as lab.cu's host object; its path.
std::string compile(const std::string& name, const std::string& code) {
  const fs::path dir = fs::path(BANKLAB_TEST_TMP) / "link_check";
  fs::create_directories(dir);
  const fs::path source = dir / (name + ".cpp");
  std::ofstream(source) << code;
  const std::string object = (dir / (name + ".o")).string();
  const auto r = banklab::test::run_command(std::string(BANKLAB_CXX) + " -std=c++17 -O0 -c -fno-exceptions " +
                                            source.string() + " -o " + object + " 2>&1");
  INFO(code << "\n" << r.out);
  REQUIRE(r.status == 0);
  return object;
}

// The link check's refusal of `object`, or "" when it passes.
std::string refusal(const std::string& object) {
  try {
    banklab::grader::check_lab_object(object, "lab.cu", object + ".guarded", 20);
    return "";
  } catch (const banklab::grader::BuildError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("a lab object defining a name in a reserved namespace is refused, in a namespace of its own it passes") {
  const std::string function = "int lab_defined(int a) { return a + 1; }\n";
  const std::string member = "struct Lab { int v; int get() const; };\nint Lab::get() const { return v; }\n";
  for (const std::string ns : {"std", "banklab", "harness", "nlohmann", "__gnu_cxx", "__cxxabiv1"}) {
    for (const auto& [kind, code] : {std::pair{"function", function}, std::pair{"member", member}}) {
      INFO("namespace " << ns << ", " << kind);
      const std::string shown = ns + (std::string(kind) == "function" ? "::lab_defined(int)" : "::Lab::get() const");
      const std::string why = refusal(compile(ns + "_" + kind, "namespace " + ns + " {\n" + code + "}\n"));
      CHECK(why.find("lab.cu for the CPU emulator is refused") != std::string::npos);
      CHECK(why.find("defines `" + shown + "`") != std::string::npos);
    }
  }
  // The C++ runtime's allocation functions are the runner's too.
  CHECK(refusal(compile("operator_new", "#include <cstddef>\nvoid* operator new(std::size_t) { return nullptr; }\n"))
            .find("defines `operator new(unsigned long)`") != std::string::npos);
  CHECK(refusal(compile("operator_delete", "void operator delete(void*) noexcept {}\n"))
            .find("defines `operator delete(void*)`") != std::string::npos);
  CHECK(refusal(compile("operator_delete_array", "void operator delete[](void*) noexcept {}\n"))
            .find("defines `operator delete[](void*)`") != std::string::npos);
  // A namespace of the student's own, and a namespace whose name only begins like a reserved one.
  for (const std::string ns : {"lab", "banklabs", "stdx", "harnessed"}) {
    INFO("namespace " << ns);
    CHECK(refusal(compile("own_" + ns, "namespace " + ns + " {\n" + function + member + "}\n")) == "");
  }
}

TEST_CASE(
    "a lab object defining a global variable with a reserved C name (a leading underscore, the C library's data) is "
    "refused, its own names pass") {
  // extern "C" keeps the names unmangled, as the C library's and the loader's are.
  for (const std::string name : {"_IO_stdin_used", "__libc_lab", "_dl_argv", "environ", "stdout", "errno"}) {
    INFO(name);
    const std::string why = refusal(compile("data_" + name, "extern \"C\" { int " + name + " = 1; }\n"));
    CHECK(why.find("lab.cu for the CPU emulator is refused") != std::string::npos);
    CHECK(why.find("defines `" + name + "`") != std::string::npos);
  }
  // A variable the contract names, and any other unmangled name of the student's.
  for (const std::string name : {"predicted_wavefronts", "lab_table", "x_"}) {
    INFO(name);
    CHECK(refusal(compile("data_" + name, "extern \"C\" { int " + name + "[4] = {1, 2, 3, 4}; }\n")) == "");
  }
}

TEST_CASE(
    "weak symbols are checked like the others: a weak definition of malloc or in banklab, a weak call of system") {
  CHECK(refusal(compile("weak_malloc",
                        "#include <cstddef>\nextern \"C\" __attribute__((weak)) void* malloc(std::size_t) "
                        "{ return nullptr; }\n"))
            .find("defines `malloc`") != std::string::npos);
  CHECK(refusal(compile("weak_banklab",
                        "namespace banklab {\n__attribute__((weak)) int lab_defined(int a) { return a; }\n}\n"))
            .find("defines `banklab::lab_defined(int)`") != std::string::npos);
  CHECK(refusal(compile("weak_system",
                        "extern \"C\" int system(const char*) __attribute__((weak));\n"
                        "int lab_run() { return system ? system(\"true\") : 0; }\n"))
            .find("calls `system`, which lab code may not call") != std::string::npos);
  // Inline functions and templates of the student's own are weak too, and pass.
  CHECK(refusal(compile("weak_own",
                        "namespace lab {\ninline int twice(int a) { return 2 * a; }\n"
                        "template <class T> T thrice(T a) { return 3 * a; }\n"
                        "int use(int b) { return twice(b) + thrice(b); }\n}\n")) == "");
}

TEST_CASE(
    "calls into the C library a kernel has no use for are refused, each by name: memory, files, processes, the "
    "network") {
  // Each a plain call from lab code's host object; none may reach the runner's process.
  const std::vector<std::pair<std::string, std::string>> calls = {
      {"malloc", "void* p = malloc(8); return p != nullptr;"},
      {"calloc", "void* p = calloc(2, 8); return p != nullptr;"},
      {"realloc", "void* p = realloc(q, n); return p != nullptr;"},
      {"aligned_alloc", "void* p = aligned_alloc(16, 16); return p != nullptr;"},
      {"posix_memalign", "void* p; return posix_memalign(&p, 16, 16);"},
      {"free", "free(q); return 0;"},
      {"fopen", "return fopen(\"/etc/passwd\", \"r\") != nullptr;"},
      {"open", "return open(\"/etc/passwd\", 0);"},
      {"read", "char c; return static_cast<int>(read(0, &c, 1));"},
      {"mmap", "return mmap(nullptr, 4096, 3, 0x22, -1, 0) != nullptr;"},
      {"fork", "return fork();"},
      {"execve", "return execve(\"/bin/true\", nullptr, nullptr);"},
      {"system", "return system(\"true\");"},
      {"getenv", "return getenv(\"HOME\") != nullptr;"},
      {"socket", "return socket(2, 1, 0);"},
      {"dlopen", "return dlopen(\"libc.so.6\", 1) != nullptr;"},
  };
  for (const auto& [name, body] : calls) {
    CAPTURE(name);
    const std::string code =
        "#include <cstdio>\n#include <cstdlib>\n#include <dlfcn.h>\n#include <fcntl.h>\n"
        "#include <sys/mman.h>\n#include <sys/socket.h>\n#include <unistd.h>\n"
        "int lab_uses(void* q, int n) { (void)q; (void)n; " +
        body + " }\n";
    CHECK(refusal(compile("calls_" + name, code)).find("calls `" + name + "`, which lab code may not call") !=
          std::string::npos);
  }
}
