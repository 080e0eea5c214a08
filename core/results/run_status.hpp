// Where each job of a run directory stands, read from its files and locks without disturbing a running
// process: what `featurelab status` prints, and what `featurelab submit` resubmits.
#pragma once

#include <featurelab/core/run_directory.hpp>

#include <filesystem>

namespace featurelab {

// A job is running while another process holds its lock (`featurelab job`), or, while a `featurelab run` holds
// the run directory, once it has a log; done once its `done` marker exists; otherwise as its summary.json says
// (failed, interrupted), or unfinished. Throws Error when RUN is not a run directory.
RunStatus read_run_status(const std::filesystem::path& run_dir);

}  // namespace featurelab
