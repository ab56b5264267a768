// Raw output values in a runner's JSON answer: base64 of the bytes (C++17, no
// dependencies; the runners, CPU and GPU, encode, the grader decodes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace harness {

inline constexpr char kBase64Digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// RFC 4648 base64 of `bytes` bytes, with '=' padding.
inline std::string base64_encode(const void* data, std::size_t bytes) {
  const auto* in = static_cast<const unsigned char*>(data);
  std::string out((bytes + 2) / 3 * 4, '=');
  char* o = &out[0];
  std::size_t i = 0;
  for (; i + 3 <= bytes; i += 3, o += 4) {
    const std::uint32_t v = (std::uint32_t{in[i]} << 16) | (std::uint32_t{in[i + 1]} << 8) | in[i + 2];
    o[0] = kBase64Digits[v >> 18];
    o[1] = kBase64Digits[(v >> 12) & 63];
    o[2] = kBase64Digits[(v >> 6) & 63];
    o[3] = kBase64Digits[v & 63];
  }
  if (i < bytes) {
    std::uint32_t v = std::uint32_t{in[i]} << 16;
    if (i + 1 < bytes) v |= std::uint32_t{in[i + 1]} << 8;
    o[0] = kBase64Digits[v >> 18];
    o[1] = kBase64Digits[(v >> 12) & 63];
    if (i + 1 < bytes) o[2] = kBase64Digits[(v >> 6) & 63];
  }
  return out;
}

/// The bytes of a base64 text; false (and `out` unspecified) when it is not
/// padded base64.
inline bool base64_decode(const std::string& text, std::vector<unsigned char>* out) {
  if (text.size() % 4 != 0) return false;
  signed char value[256];
  for (int c = 0; c < 256; ++c) value[c] = -1;
  for (int d = 0; d < 64; ++d) value[static_cast<unsigned char>(kBase64Digits[d])] = static_cast<signed char>(d);
  std::size_t size = text.size() / 4 * 3;
  if (!text.empty() && text[text.size() - 1] == '=') --size;
  if (text.size() >= 2 && text[text.size() - 2] == '=') --size;
  out->resize(size);
  unsigned char* o = out->data();
  std::size_t written = 0;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t v = 0;
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const unsigned char c = static_cast<unsigned char>(text[i + k]);
      int d = value[c];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        d = 0;
        ++pad;
      } else if (d < 0 || pad > 0) {
        return false;
      }
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    const int n = 3 - pad;
    if (written + static_cast<std::size_t>(n) > size) return false;
    o[written] = static_cast<unsigned char>(v >> 16);
    if (n > 1) o[written + 1] = static_cast<unsigned char>((v >> 8) & 255);
    if (n > 2) o[written + 2] = static_cast<unsigned char>(v & 255);
    written += static_cast<std::size_t>(n);
  }
  return true;
}

/// Raw outputs of a runner's answer, kept aside until emit_answer writes
/// them: a JSON library would copy and scan megabytes of base64 character by
/// character. output_blob() returns the placeholder string to put in the JSON
/// in their place; emit_answer (json_writer.hpp) writes the base64 there.
inline std::vector<std::string>& output_blobs() {
  static std::vector<std::string> blobs;
  return blobs;
}
inline constexpr char kBlobMark[] = "@banklab-output-";
inline std::string output_blob(const void* data, std::size_t bytes) {
  output_blobs().push_back(base64_encode(data, bytes));
  return kBlobMark + std::to_string(output_blobs().size() - 1) + "@";
}

}  // namespace harness
