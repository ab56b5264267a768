// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits: the keys
// of the source-check verdicts a machine with libclang hands to one without.
#pragma once

#include <string>

namespace banklab::grader {

/// The SHA-256 digest of `bytes`, in hex.
std::string sha256_hex(const std::string& bytes);

}  // namespace banklab::grader
