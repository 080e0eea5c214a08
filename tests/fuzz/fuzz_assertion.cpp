// Fuzz target: an [[assert]] expression -> parsed and evaluated against made-up metric values, or
// featurelab's error.
#include "results/assertion.hpp"

#include <featurelab/error.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto assertion = featurelab::Assertion::parse(std::string(reinterpret_cast<const char*>(data), size));
    // Values that exercise the arithmetic: zero (division), negatives (log, sqrt), large and NaN.
    auto value_of = [](const std::string& metric, const featurelab::Selector& selector) -> double {
      const std::size_t h = std::hash<std::string>{}(metric) + selector.size();
      const double values[] = {0.0, -1.5, 0.25, 1e300, std::numeric_limits<double>::quiet_NaN(), 3.0};
      return values[h % 6];
    };
    (void)assertion.evaluate(value_of);
  } catch (const featurelab::Error&) {
  }
  return 0;
}
