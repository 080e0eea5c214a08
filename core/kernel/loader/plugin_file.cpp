// Trust check, open, identity match, hash.
#include "kernel/loader/plugin_file.hpp"

#include "kernel/io/sha256.hpp"
#include "kernel/loader/plugin_trust.hpp"

#include <featurelab/error.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace featurelab {

PluginFile::PluginFile(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    failure_ = LoadFailure::NotFound;
    problem_ = "no such plugin file";
    return;
  }
  const PluginTrust trust = check_plugin_trust(file);
  if (!trust) {
    failure_ = LoadFailure::UnsafePermissions;
    problem_ = "refused: " + trust.refusal;
    return;
  }
  // O_NONBLOCK: a FIFO put in its place cannot hang the open (it is refused just below).
  fd_ = ::open(trust.resolved.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd_ < 0) {
    failure_ = LoadFailure::NotSharedLibrary;
    problem_ = "cannot open " + trust.resolved.string() + ": " + std::strerror(errno);
    return;
  }
  struct stat opened {};
  if (::fstat(fd_, &opened) != 0 || !S_ISREG(opened.st_mode) || opened.st_dev != trust.device ||
      opened.st_ino != trust.inode) {
    failure_ = LoadFailure::UnsafePermissions;
    problem_ = "refused: " + trust.resolved.string() +
               " was replaced while it was being checked; try again once nothing writes to it";
    return;
  }
  try {
    sha256_ = sha256_of_descriptor(fd_, trust.resolved.string());
  } catch (const Error& e) {
    failure_ = LoadFailure::NotSharedLibrary;
    problem_ = e.what();
  }
}

PluginFile::~PluginFile() {
  if (fd_ >= 0 && !kept_) ::close(fd_);
}

std::filesystem::path PluginFile::loadable_path() const {
  return "/proc/self/fd/" + std::to_string(fd_);
}

}  // namespace featurelab
