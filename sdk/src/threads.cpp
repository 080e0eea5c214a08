// The team size of our OpenMP loops (see threads.hpp).
#include <featurelab/threads.hpp>

#include <algorithm>
#include <atomic>

#ifdef FEATURELAB_OPENMP
#include <omp.h>
#endif

namespace featurelab {

namespace {
std::atomic<int> threads{1};

#ifdef FEATURELAB_OPENMP
// Why the SDK refers to libgomp itself: OpenMP's worker threads outlive the parallel region that
// started them (they wait for the next one). When libgomp came into the process with a plugin only,
// unloading that plugin unmapped libgomp under its waiting threads: a segfault at exit, in about 1 of
// 100 runs of a midpoint-mixup unit test. With this reference libgomp is a dependency of the SDK, which
// every host loads before any plugin and never unloads.
[[gnu::used]] int (*const keep_openmp_loaded)() = &omp_get_max_threads;
#endif
}  // namespace

int job_threads() {
#ifdef FEATURELAB_OPENMP
  return threads.load(std::memory_order_relaxed);
#else
  return 1;
#endif
}

void set_job_threads(int count) { threads.store(std::max(1, count), std::memory_order_relaxed); }

}  // namespace featurelab
