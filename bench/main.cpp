// featurelab-bench: the machine's limits are measured first and printed with the context, so every
// row of the run is read against the same yardstick (machine_limits.hpp).
#include "machine_limits.hpp"

#include <benchmark/benchmark.h>

#include <fmt/format.h>

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const auto& limits = featurelab::bench::machine_limits();
  benchmark::AddCustomContext("sgemm_peak_1_thread",
                              fmt::format("{:.1f} GFLOP/s ({})", limits.sgemm_1_thread, limits.best_1_thread));
  benchmark::AddCustomContext("sgemm_peak_2_threads", fmt::format("{:.1f} GFLOP/s", limits.sgemm_2_threads));
  benchmark::AddCustomContext("read_bandwidth_123MB",
                              fmt::format("{:.1f} GB/s (1 thread), {:.1f} GB/s (2 threads)", limits.read_gb_per_s_1,
                                          limits.read_gb_per_s_2));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
