// `featurelab job RUN --indices LIST`: runs jobs of a prepared run directory (run --prepare) on this process's
// CPUs, as an array task of a cluster scheduler runs them: each job in a worker process of its own, up to
// options.jobs at once sharing options.cores threads, a crash, time-out or memory kill recorded in its
// summary.json. Every job's directory is locked while the job runs: a job another process is running (a duplicate
// or requeued task overlapping its predecessor) is put off while the free ones run, then waited for, holding no
// other job's lock, and skipped once it is done; so no two processes ever write one job, and two processes given
// overlapping lists in any order never wait for each other.
#pragma once

#include "execution/run.hpp"

#include <vector>

namespace featurelab {

// Returns the exit code: 0 when every job is done, 1 when one failed, 128 + the signal when a stop request
// interrupted them. Throws ConfigError for an index out of range or a job whose files do not match run.json, and
// BusyError when a `featurelab run` holds the directory.
int run_prepared_jobs(const std::vector<std::size_t>& indices, Catalog& catalog, const RunOptions& options);

}  // namespace featurelab
