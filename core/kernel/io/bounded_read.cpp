// stat(2) first, so nothing is opened that could block (a FIFO's open waits for a writer); then
// open with O_NONBLOCK and fstat the descriptor, so a file swapped for a pipe in between is still
// refused; then read at most max_bytes + 1, so a file that grows meanwhile cannot exceed the cap.
#include "kernel/io/bounded_read.hpp"

#include <featurelab/error.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace featurelab {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

std::string not_regular(mode_t mode) { return "not a regular file (" + kind_of(mode) + ")"; }

// size: the file's, or (at_least) what was read of a file that grew while it was read.
std::string too_large(std::uintmax_t size, std::uintmax_t max_bytes, bool at_least = false) {
  return std::string(at_least ? "has more than " : "is ") + std::to_string(at_least ? max_bytes : size) +
         " bytes, more than the " +
         (max_bytes % (std::uintmax_t{1} << 20) == 0 ? std::to_string(max_bytes >> 20) + " MiB"
                                                     : std::to_string(max_bytes) + " bytes") +
         " this file may have; is it the file you meant?";
}

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_bounded_file(const std::filesystem::path& file, std::uintmax_t max_bytes) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0) {
    const int error = errno;
    throw Error(std::string("cannot read it: ") + std::strerror(error));
  }
  if (!S_ISREG(info.st_mode)) throw Error(not_regular(info.st_mode));
  const auto size = static_cast<std::uintmax_t>(info.st_size);
  if (size > max_bytes) throw Error(too_large(size, max_bytes));
  const Descriptor fd(::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    const int error = errno;
    throw Error(std::string("cannot read it: ") + std::strerror(error));
  }
  if (::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode)) throw Error(not_regular(info.st_mode));
  std::string text;
  text.reserve(static_cast<std::size_t>(info.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      throw Error(std::string("cannot read it: ") + std::strerror(error));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) throw Error(too_large(text.size(), max_bytes, true));
  }
  return text;
}

}  // namespace featurelab
