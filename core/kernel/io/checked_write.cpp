// write(2) in a loop: a regular file may accept part of a buffer (the disk or the file size limit
// reached mid-way), and a signal may interrupt the call before anything is written.
#include "kernel/io/checked_write.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace featurelab {

int write_fully(int fd, std::string_view data) noexcept {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    // POSIX allows 0 only for a zero-length write; never loop forever on a device that says so.
    if (n == 0) return EIO;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

std::string write_failure(const std::filesystem::path& file, int error) {
  const std::string reason = std::strerror(error);
  if (error == ENOSPC || error == EDQUOT) return "disk full while writing " + file.string() + ": " + reason;
  // A file size limit (ulimit -f, RLIMIT_FSIZE) or the filesystem's largest file.
  if (error == EFBIG) return "cannot write " + file.string() + ": " + reason + " (the file size limit, ulimit -f)";
  return "cannot write " + file.string() + ": " + reason;
}

}  // namespace featurelab
