// Reading an input file whole, only if it is a regular file of bounded size: a directory, a device
// (/dev/zero, /dev/urandom) or a named pipe is refused before anything is read, so an endless
// stream never fills memory and a pipe without a writer never blocks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace featurelab {

// Pipeline and base files: far above any real pipeline (the largest sweep lists are kilobytes).
inline constexpr std::uintmax_t kMaxPipelineFileBytes = std::uintmax_t{64} << 20;

// The file's content. Throws featurelab::Error with the problem, not naming the file (the caller
// locates it): "not a regular file (a directory)", "is 70000000 bytes, more than the 64 MiB an
// input file may have; ...", "cannot read it: Permission denied".
std::string read_bounded_file(const std::filesystem::path& file, std::uintmax_t max_bytes);

}  // namespace featurelab
