// Fuzz target: TOML text -> the validated run plan (parser, base files, [sweep], every component's
// schema, assertions), or featurelab's error.
#include "fuzz_catalog.hpp"
#include "fuzz_common.hpp"

#include "kernel/job/plan.hpp"
#include "results/run_assertions.hpp"

#include <featurelab/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = featurelab::fuzz::write_input("pipeline.toml", data, size);
  try {
    featurelab::RunPlan plan = featurelab::plan_run(file, {}, featurelab::fuzz::std_catalog());
    featurelab::check_assertions(plan);
  } catch (const featurelab::Error&) {
  }
  return 0;
}
