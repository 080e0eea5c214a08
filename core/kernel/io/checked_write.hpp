// Writing to a file descriptor so that no failure goes unnoticed: a short count is continued, an
// interrupted call (EINTR) is retried, and any other failure (ENOSPC, EDQUOT, EFBIG, EIO) comes
// back as its errno, for a message that names the file and the reason.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace featurelab {

// Writes all of data at the descriptor's offset. Returns 0, or the errno of the call that failed
// (some of data may have been written before it).
int write_fully(int fd, std::string_view data) noexcept;

// "disk full while writing F: No space left on device", "cannot write F: File too large (...)":
// what a job or the run reports when writing file failed with errno error.
std::string write_failure(const std::filesystem::path& file, int error);

}  // namespace featurelab
