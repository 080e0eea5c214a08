// The team size of our OpenMP loops (see threads.hpp).
#include <featurelab/threads.hpp>

#include <algorithm>
#include <atomic>

namespace featurelab {

namespace {
std::atomic<int> threads{1};
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
