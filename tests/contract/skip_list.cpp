// The components the contract test does not check, each with the reason. Every entry is printed
// with the run's summary; a component is never skipped silently.
#include "contract.hpp"

#include <vector>

namespace contract {

namespace {

struct Skip {
  const char* id;  // "pack:name"
  const char* reason;
};

// {"pack:name", "why it cannot be checked in isolation"}. Empty: every registered component is
// checked (a component that needs other data or a model declares its companions instead).
const std::vector<Skip> kSkips = {};

}  // namespace

const char* skip_reason(const Entry& entry) {
  const std::string id = entry.id();
  for (const auto& skip : kSkips) {
    if (id == skip.id) return skip.reason;
  }
  return nullptr;
}

}  // namespace contract
