// SHA-256 of a string, as lowercase hex: the quiz compares salted hashes of
// answers, so that the student kit can grade without holding the key.
#pragma once

#include <string>

namespace banklab::grader::quiz {

/// FIPS 180-4 SHA-256 of `data`, 64 lowercase hex digits.
std::string sha256_hex(const std::string& data);

}  // namespace banklab::grader::quiz
