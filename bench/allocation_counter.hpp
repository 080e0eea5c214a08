// Counts every heap allocation of the process (operator new, Eigen's aligned allocations, the
// plugins' as well as the core's) by interposing glibc's malloc family in the benchmark binary, so a
// benchmark can prove that a training step allocates nothing: allocs/step = 0.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>

namespace featurelab::bench {

std::int64_t allocations();

// Reports allocations per iteration of the timed loop as the counter "allocs/step"; construct it after
// a warm-up step (buffers sized), read it after the loop.
class AllocationsPerStep {
 public:
  AllocationsPerStep() : start_(allocations()) {}
  void report(benchmark::State& state) const {
    state.counters["allocs/step"] =
        static_cast<double>(allocations() - start_) / static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
  }

 private:
  std::int64_t start_;
};

}  // namespace featurelab::bench
