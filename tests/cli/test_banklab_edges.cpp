// banklab run at its edges: --time-limit bounds the whole program (host code
// included) and a stopped launch is a non-zero exit; limits that are not a
// number of seconds are refused in words; a program without a launch, or one
// whose allocation fails, is told so instead of "did it call _exit?".
#include <doctest/doctest.h>

#include <string>

#include "run_command.hpp"

using banklab::test::run_command;

namespace {

std::string banklab_run(const std::string& args) {
  return std::string("BANKLAB_CACHE_DIR=") + BANKLAB_TEST_CACHE + " " + BANKLAB_PATH + " run " + args;
}
std::string program(const std::string& name) { return std::string(BANKLAB_PROGRAMS) + "/" + name; }

}  // namespace

TEST_CASE("--time-limit stops an endless host loop: the whole program is bounded, exit status 124") {
  // Without the bound this test would never end (the loop is endless): that it
  // ends at all, with the limit's message, is the check.
  const auto r = run_command(banklab_run("--time-limit 2 " + program("host_loop.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 124);
  CHECK(r.out.find("launched; now looping on the host") != std::string::npos);
  CHECK(r.out.find("ran past the time limit of 2 s (the whole program, host code included)") != std::string::npos);
}

TEST_CASE("a launch stopped at the time limit makes banklab run exit 124, though the program returns 0") {
  const auto r = run_command(banklab_run("--time-limit 1 " + program("kernel_loop.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 124);
  CHECK(r.out.find("1 launch was stopped at the time limit of 1 s") != std::string::npos);
  CHECK(r.out.find("after the launch: ") != std::string::npos);  // the program went on, and saw the error
}

TEST_CASE("--time-limit that is not a number of seconds is refused with its range, not a 309-digit number") {
  for (const char* limit : {"1e20", "nan", "inf", "-1", "0", "soon"}) {
    INFO("--time-limit " << limit);
    const auto r = run_command(banklab_run(std::string("--time-limit ") + limit + " " + program("transpose.cu")) +
                               " 2>&1");
    CHECK(r.status != 0);
    CHECK(r.out.find("is not a number of seconds from 0.001 to 86400") != std::string::npos);
    CHECK(r.out.find("179769") == std::string::npos);  // the largest double, written out
  }
}

TEST_CASE("a program without a kernel launch is told there is nothing to trace") {
  const auto r = run_command(banklab_run(program("no_launch.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("allocated and freed, launched nothing") != std::string::npos);
  CHECK(r.out.find("the program has no kernel launch") != std::string::npos);
  CHECK(r.out.find("_exit or abort") == std::string::npos);
}

TEST_CASE("a failed cudaMalloc before the first launch is named, with its size") {
  const auto r = run_command(banklab_run(program("alloc_fails.cu")) + " 2>&1");
  INFO(r.out);
  CHECK(r.status == 1);  // the program's own exit status
  CHECK(r.out.find("cudaMalloc: out of memory") != std::string::npos);
  CHECK(r.out.find("before its first kernel launch: 1 cudaMalloc call failed (the largest asked for "
                   "1125899906842624 bytes") != std::string::npos);
  CHECK(r.out.find("_exit or abort") == std::string::npos);
}
