#include "kernel/io/run_lock.hpp"

#include <featurelab/core/errors.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

// The processes holding a lock on the file open as `fd`, from /proc/locks
// ("1: FLOCK  ADVISORY  WRITE 27792 fe:00:11051835 0 EOF"); those still alive. Only a hint for
// the message: empty where the system does not say.
std::set<long> lock_holders(int fd, bool exclusive_only = false) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {};
  const std::string file_id = fmt::format("{:02x}:{:02x}:{}", major(st.st_dev), minor(st.st_dev), st.st_ino);
  const std::string inode_suffix = fmt::format(":{}", st.st_ino);
  std::set<long> by_file, by_inode;
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);) {
    if (line.find("->") != std::string::npos) continue;  // a waiter, not a holder
    std::istringstream fields(line);
    std::string id, kind, advisory, access, file;
    long pid = 0;
    if (!(fields >> id >> kind >> advisory >> access >> pid >> file) || kind != "FLOCK") continue;
    if (exclusive_only && access != "WRITE") continue;  // READ: a shared lock
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) continue;
    if (file == file_id) by_file.insert(pid);
    // On an overlay the device in /proc/locks is the layer's, not the one stat reports.
    const bool same_inode = file.size() > inode_suffix.size() &&
                            file.compare(file.size() - inode_suffix.size(), inode_suffix.size(), inode_suffix) == 0;
    if (same_inode) {
      by_inode.insert(pid);
    }
  }
  by_file.erase(::getpid());
  by_inode.erase(::getpid());
  return by_file.empty() ? by_inode : by_file;
}

std::string holders_text(const std::set<long>& pids) {
  if (pids.empty()) return "another featurelab process";
  std::string list;
  for (long pid : pids) list += (list.empty() ? "" : ", ") + std::to_string(pid);
  return fmt::format("another featurelab process (pid {})", list);
}

}  // namespace

DirectoryLock::DirectoryLock(const fs::path& dir, Mode mode, const std::string& what) : DirectoryLock(dir, mode, what, Wait{}) {}

DirectoryLock::DirectoryLock(const fs::path& dir, Mode mode, const std::string& what, const Wait& wait) {
  const fs::path file = dir / kLockFileName;
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error(fmt::format("{}: cannot open the lock file: {}", file.string(), std::strerror(errno)));
  bool told = false;
  for (;;) {
    int got = 0;
    do {
      got = ::flock(fd_, (mode == Mode::exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB);
    } while (got != 0 && errno == EINTR);
    if (got == 0) return;
    const int error = errno;
    // A filesystem without locks (some network and FUSE mounts) runs unlocked, as before locks existed.
    if (error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS) return;
    std::string holders;
    if (error == EWOULDBLOCK) holders = holders_text(lock_holders(fd_));
    const bool keep_waiting = error == EWOULDBLOCK && wait.stop != nullptr && !wait.stop->load();
    if (keep_waiting) {
      if (!told && wait.waiting) wait.waiting(holders);
      told = true;
      ::usleep(200000);  // polled, not a blocking flock: a stop request must end the wait
      continue;
    }
    ::close(fd_);
    fd_ = -1;
    if (error != EWOULDBLOCK) {
      throw Error(fmt::format("{}: cannot lock it: {}", file.string(), std::strerror(error)));
    }
    throw BusyError(fmt::format("{}: {} is in use by {}; wait for it to end (or stop it), then run again",
                                dir.string(), what, holders));
  }
}

bool DirectoryLock::held_elsewhere(const fs::path& dir, Mode mode) {
  const int fd = ::open((dir / kLockFileName).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = !lock_holders(fd, mode == Mode::exclusive).empty();
  ::close(fd);
  return held;
}

std::string DirectoryLock::lost(const fs::path& dir) const {
  if (fd_ < 0) return {};
  struct stat held {}, now {};
  if (::fstat(fd_, &held) != 0) return {};
  const fs::path file = dir / kLockFileName;
  if (::stat(file.c_str(), &now) != 0) {
    return fmt::format("{} was removed during the run ({}: {})", dir.string(), file.string(), std::strerror(errno));
  }
  if (now.st_dev != held.st_dev || now.st_ino != held.st_ino) {
    return fmt::format("{} was replaced during the run (its {} is another file now)", dir.string(), kLockFileName);
  }
  return {};
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace featurelab
