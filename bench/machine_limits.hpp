// The machine's real limits, measured in the same run as the steps they judge: the best
// single-precision GEMM on offer (Eigen, and Debian's single-threaded OpenBLAS and BLIS builds, each
// on 1 and 2 threads) and the read bandwidth of a 123 MB array. A step's GFLOP/s is reported as a
// fraction of the best GEMM, and its bytes per step against the bandwidth: the yardstick is what a
// researcher's own script gets from a tuned BLAS, not our own code.
#pragma once

#include <benchmark/benchmark.h>

#include <string>

namespace featurelab::bench {

struct MachineLimits {
  double sgemm_1_thread = 0;    // GFLOP/s, the best of the libraries found, 1024³
  double sgemm_2_threads = 0;   // the same with the output split in two halves, one per thread
  std::string best_1_thread;    // which library gave it
  double read_gb_per_s_1 = 0;   // summing a 123 MB float array, one thread
  double read_gb_per_s_2 = 0;   // two threads, one half each
};

// Measured once (about 2 s), on first use.
const MachineLimits& machine_limits();

// Adds the counters "%sgemm" (GFLOP/s over the best GEMM at this many threads) and "%bw" (bytes per
// step read at the measured bandwidth over the time of a step) to a step benchmark's row.
void report_against_limits(benchmark::State& state, double flops_per_step, double bytes_per_step, int threads);

}  // namespace featurelab::bench
