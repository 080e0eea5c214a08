// Temporary file + checked write + checked close + rename: rename(2) replaces the target
// atomically on POSIX. Every step is checked, because a full disk shows as a short or failed
// write (ENOSPC), a file size limit as EFBIG, and a network filesystem may report a failed write
// only at close(2).
#include "kernel/io/atomic_file.hpp"

#include "kernel/io/checked_write.hpp"

#include <featurelab/error.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace featurelab {

void write_file_atomically(const std::filesystem::path& file, const std::string& text) {
  const std::filesystem::path tmp = file.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int error = errno;
    throw Error(file.string() + ": cannot write it (" + tmp.string() + "): " + std::strerror(error));
  }
  int error = write_fully(fd, text);
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    // A half-written .tmp is no use to anyone, and on a full disk it holds space others need.
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw Error(write_failure(file, error));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw Error(file.string() + ": cannot replace it: " + ec.message());
  }
}

}  // namespace featurelab
