// SHA-256 for the quiz's sealed answers: the grader's one implementation
// (grader/src/sha256.*), also used for the source-check verdicts.
#pragma once

#include "../src/sha256.hpp"

namespace banklab::grader::quiz {

using banklab::grader::sha256_hex;

}  // namespace banklab::grader::quiz
