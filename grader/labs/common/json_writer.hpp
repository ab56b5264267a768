// A minimal JSON writer for the GPU runners (C++17, no dependencies, so
// that nvcc compiles it): enough for their flat reports to the grader.
#pragma once

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace harness {

/// A minimal JSON writer: enough for the runners' flat reports.
class Json {
 public:
  Json& key(const char* k) {
    comma();
    out_ << '"' << k << "\":";
    fresh_ = true;
    return *this;
  }
  Json& value(double v) {
    comma();
    if (std::isfinite(v)) {
      out_ << v;
    } else {
      out_ << "null";
    }
    return *this;
  }
  Json& value(long long v) {
    comma();
    out_ << v;
    return *this;
  }
  Json& value(bool v) {
    comma();
    out_ << (v ? "true" : "false");
    return *this;
  }
  Json& value(const std::string& v) {
    comma();
    out_ << '"';
    for (char ch : v) {
      if (ch == '"' || ch == '\\') {
        out_ << '\\' << ch;
      } else if (static_cast<unsigned char>(ch) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", ch);
        out_ << buffer;
      } else {
        out_ << ch;
      }
    }
    out_ << '"';
    return *this;
  }
  Json& open(char bracket) {
    comma();
    out_ << bracket;
    fresh_ = true;
    return *this;
  }
  Json& close(char bracket) {
    out_ << bracket;
    fresh_ = false;
    return *this;
  }
  std::string str() const { return out_.str(); }

 private:
  void comma() {
    if (!fresh_) out_ << ',';
    fresh_ = false;
  }
  std::ostringstream out_;
  bool fresh_ = true;
};

/// Sends the runner's answer (one JSON object) to the grader: on the file
/// descriptor the grader names in BANKLAB_ANSWER_FD, apart from whatever the
/// program under test prints on stdout and stderr; on stdout when the runner
/// is run by hand.
inline void emit_answer(const std::string& json) {
  const std::string line = json + "\n";
  std::fflush(stdout);
  const char* fd_text = std::getenv("BANKLAB_ANSWER_FD");
  if (fd_text == nullptr) {
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
    return;
  }
  const int fd = std::atoi(fd_text);
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace harness
