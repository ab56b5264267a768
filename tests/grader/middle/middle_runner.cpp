// A runner in the middle, for tests only: the stage's own CPU runner (its
// `main` renamed banklab_runner_main by make_middle_runner.sh) runs as
// usual, its answer goes to a memory file instead of the grader's answer
// descriptor, and this `main` hands the grader that answer changed as
// BANKLAB_MIDDLE_MODE says. It stands for a runner whose answer channel
// something else reached (a forged line, a second line) or whose answer is
// raw data of an odd kind (a run that did not finish), to show the grader
// refuses or fails each. Mode "crash_after_answer" passes the answer on
// unchanged and then aborts, for a runner that wrote a right answer and
// crashed. Mode "honest" passes the answer on unchanged.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

extern "C" int banklab_runner_main(int argc, char** argv);

namespace {

constexpr const char* kMode = BANKLAB_MIDDLE_MODE;
int g_answer_fd = -1;  // the grader's descriptor
int g_memory_fd = -1;  // where the runner's answer went

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Every run of an answer marked as not finished (stages 2 and 5: "runs",
// each with the emulator's "report").
void mark_unfinished(nlohmann::json& answer) {
  if (!answer.contains("runs")) return;
  for (auto& run : answer["runs"]) {
    if (run.contains("report")) run["report"]["completed"] = false;
  }
}

// Sends the runner's answer on, changed as the mode says; once.
void forward() {
  if (g_memory_fd < 0) return;
  const int memory = g_memory_fd;
  g_memory_fd = -1;
  std::string line;
  char buffer[1 << 16];
  ::lseek(memory, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(memory, buffer, sizeof buffer)) > 0;) line.append(buffer, static_cast<std::size_t>(n));
  const std::size_t space = line.find(' ');
  if (line.empty() || space == std::string::npos) {
    write_all(g_answer_fd, line);
    return;
  }
  const std::string secret = line.substr(0, space);
  const std::string json = line.substr(space + 1);  // with its newline
  const std::string mode = kMode;
  if (mode == "forged_secret") {
    // What a lab file that cannot read the secret could write: junk of its length.
    write_all(g_answer_fd, std::string(secret.size(), 'x') + " " + json);
  } else if (mode == "second_line") {
    write_all(g_answer_fd, line + line);
  } else if (mode == "unfinished") {
    nlohmann::json answer = nlohmann::json::parse(json);
    mark_unfinished(answer);
    write_all(g_answer_fd, secret + " " + answer.dump() + "\n");
  } else {
    write_all(g_answer_fd, line);
  }
  if (mode == "crash_after_answer") std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  const char* fd_text = std::getenv("BANKLAB_ANSWER_FD");
  if (fd_text == nullptr) return banklab_runner_main(argc, argv);  // run by hand
  g_answer_fd = std::atoi(fd_text);
  g_memory_fd = static_cast<int>(::memfd_create("runner-answer", 0));
  if (g_memory_fd < 0) return banklab_runner_main(argc, argv);
  const std::string memory = std::to_string(g_memory_fd);
  ::setenv("BANKLAB_ANSWER_FD", memory.c_str(), 1);
  std::atexit(forward);  // a runner that ends with std::exit
  const int status = banklab_runner_main(argc, argv);
  forward();
  return status;
}
