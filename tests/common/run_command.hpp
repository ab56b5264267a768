// Runs a shell command for the CLI tests and returns its exit status and
// standard output (redirect stderr in the command to capture it too).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace banklab::test {

struct CommandResult {
  int status = -1;  ///< exit status, -1 if it did not exit normally
  std::string out;
};

inline CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace banklab::test
