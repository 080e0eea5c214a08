// Job indices written as Slurm writes array indices: "0-4,7,9-12". `featurelab job --indices` reads them,
// `featurelab status --missing` and `featurelab submit` write them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace featurelab {

// The indices of `text`, in the order written, each once; every index below `count` (the run's jobs).
// Throws ConfigError located at `where` ("--indices") naming the bad part and the valid range.
std::vector<std::size_t> parse_index_list(const std::string& text, std::size_t count, const std::string& where);

// Sorted indices as ranges: {0, 1, 2, 5, 7, 8} → "0-2,5,7-8"; "" for none.
std::string format_index_list(std::vector<std::size_t> indices);

}  // namespace featurelab
