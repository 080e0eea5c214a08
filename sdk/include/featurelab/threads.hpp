// Threads of the running job. A job starts with one: jobs run side by side, one per core
// (`--jobs`), so the parallelism is across jobs first. When cores fall idle at the end of a sweep the
// engine hands them to the jobs still running, which use them in the plugins' OpenMP loops from
// their next step on.
//
// Results never depend on the thread count: a parallel loop splits its work into a fixed number of
// chunks (parallel_chunks), sums each chunk's share in its own buffer and adds the buffers in chunk
// order, and Eigen's own products stay single-threaded (EIGEN_DONT_PARALLELIZE: their blocking, hence
// their rounding, would change with the thread count). A seed gives the same bits with --jobs 1 and --jobs 16.
#pragma once

#include <featurelab/types.hpp>

namespace featurelab {

// The team size of the plugins' parallel loops: write `#pragma omp parallel for
// num_threads(job_threads())`. 1 unless the engine raised it (and always 1 without OpenMP).
int job_threads();
void set_job_threads(int threads);

// A deterministic parallel loop splits its items into this many chunks, fixed so that the
// summation order does not depend on the thread count; chunk c is [chunk_begin(n, c),
// chunk_begin(n, c + 1)).
constexpr Index parallel_chunks = 8;
inline Index chunk_begin(Index count, Index chunk) { return count * chunk / parallel_chunks; }

// A loop over fewer values than this (entries it reads or writes) runs its chunks on the calling thread: waking
// a team and joining it costs more than a second thread saves (bench/README.md, round 21: a composed transformer
// at width 64, each of its layer norm, activation and attention loops a region of its own, ran 1.2× slower on
// two threads than on one).
constexpr Index kMinParallelValues = Index(1) << 16;

// f(chunk, begin, end) for every chunk of [0, count), on job_threads() threads, or in order on this one when
// `values` (what the loop touches) is below kMinParallelValues; the chunks, hence the bits, are the same either
// way. f must not throw (an exception cannot leave an OpenMP region): size every buffer before the loop.
template <class F>
void parallel_over_chunks(Index count, F&& f, Index values = kMinParallelValues) {
  const int threads = values < kMinParallelValues ? 1 : job_threads();
  if (threads == 1) {  // no OpenMP region: a team of one still costs libgomp an allocation
    for (Index chunk = 0; chunk < parallel_chunks; ++chunk) f(chunk, chunk_begin(count, chunk), chunk_begin(count, chunk + 1));
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static, 1)
  for (Index chunk = 0; chunk < parallel_chunks; ++chunk) f(chunk, chunk_begin(count, chunk), chunk_begin(count, chunk + 1));
}

}  // namespace featurelab
