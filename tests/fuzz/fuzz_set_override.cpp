// Fuzz target: --set overrides (one per input line) on a valid pipeline -> the validated plan, or
// featurelab's error.
#include "fuzz_catalog.hpp"
#include "fuzz_common.hpp"

#include "kernel/job/plan.hpp"
#include "results/run_assertions.hpp"

#include <featurelab/error.hpp>

#include <sstream>
#include <vector>

namespace {
const char* kPipeline = R"([experiment]
name = "fuzz"
seeds = [0]
[data]
use = "xor-clusters"
dim = 2
train = 20
test = 10
[model]
use = "two-layer"
width = 4
[loss]
use = "logistic"
[optimizer]
use = "gd"
lr = 0.05
[train]
steps = 3
[sweep]
"model.width" = [4, 8]
[[probe]]
use = "accuracy"
[[assert]]
expect = "accuracy.test >= 0.5"
)";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto file = featurelab::fuzz::write_input(
      "base.toml", reinterpret_cast<const std::uint8_t*>(kPipeline), std::char_traits<char>::length(kPipeline));
  std::vector<std::string> overrides;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line);) overrides.push_back(line);
  try {
    featurelab::RunPlan plan = featurelab::plan_run(file, overrides, featurelab::fuzz::std_catalog());
    featurelab::check_assertions(plan);
  } catch (const featurelab::Error&) {
  }
  return 0;
}
