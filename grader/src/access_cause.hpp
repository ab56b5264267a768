// Why a warp instruction conflicts, in words derived from its priced access:
// the lane group at fault, the stride of its lanes and its gcd with 32, or
// the words that meet in one bank when the lanes follow no stride.
#pragma once

#include <string>

#include "banklab/bank_model.hpp"

namespace banklab::grader {

/// One or two sentences for a student: why `cost`'s worst lane group needs
/// more wavefronts than its ideal, worked out from its lanes' addresses.
/// "" when the access is at its ideal.
std::string conflict_cause(const AccessCost& cost);

}  // namespace banklab::grader
