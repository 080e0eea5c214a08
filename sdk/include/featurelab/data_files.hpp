// Files a component reads its data from. A distribution that loads a file calls note_data_file(path) once it
// has read it; the core records each noted file with its sha256 in the job's summary.json, so a result says
// which bytes it was computed from (a dataset replaced between two runs shows in their records).
#pragma once

#include <filesystem>
#include <vector>

namespace featurelab {

// Safe from any thread; a file noted twice is recorded once.
void note_data_file(const std::filesystem::path& file);

// The files noted in this process so far (a job runs in a worker process of its own), in the order noted.
std::vector<std::filesystem::path> noted_data_files();

}  // namespace featurelab
