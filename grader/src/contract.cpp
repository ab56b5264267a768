// The registry of the stages' contracts (contract.hpp).
#include "contract.hpp"

#include <map>

namespace banklab::grader {

namespace {
std::map<int, Contract>& registry() {
  static std::map<int, Contract> contracts;
  return contracts;
}
}  // namespace

bool register_contract(int lab, Contract (*factory)()) {
  registry()[lab] = factory();
  return true;
}

const Contract* contract_for(int lab) {
  const auto found = registry().find(lab);
  return found == registry().end() ? nullptr : &found->second;
}

}  // namespace banklab::grader
