// posix_fallocate(3) allocates the blocks (tmpfs pages) now; overwriting allocated blocks later
// needs no new space, and cutting the file to its length frees the rest.
#include "kernel/io/reserved_file.hpp"

#include "kernel/io/atomic_file.hpp"
#include "kernel/io/checked_write.hpp"

#include <featurelab/error.hpp>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace featurelab {

ReservedFile::ReservedFile(const std::filesystem::path& file, long bytes)
    : file_(file), tmp_(file.string() + ".tmp") {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ >= 0 && ::posix_fallocate(fd_, 0, static_cast<off_t>(bytes)) != 0) release();
}

ReservedFile::~ReservedFile() { release(); }

void ReservedFile::release() {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  std::error_code ignored;
  std::filesystem::remove(tmp_, ignored);
}

void ReservedFile::write(const std::string& text) {
  if (fd_ < 0) {
    write_file_atomically(file_, text);
    return;
  }
  int error = ::lseek(fd_, 0, SEEK_SET) < 0 ? errno : 0;
  if (error == 0) error = write_fully(fd_, text);
  if (error == 0 && ::ftruncate(fd_, static_cast<off_t>(text.size())) != 0) error = errno;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && error == 0) error = errno;
  std::error_code ec;
  if (error == 0) std::filesystem::rename(tmp_, file_, ec);
  if (error != 0 || ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp_, ignored);
    throw Error(error != 0 ? write_failure(file_, error) : file_.string() + ": cannot replace it: " + ec.message());
  }
}

}  // namespace featurelab
