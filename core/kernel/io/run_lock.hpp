// One writer per run directory and per job. `featurelab run` holds RUN/.lock exclusively for its
// whole life; `featurelab job` holds it shared (the jobs of a prepared run may run side by side)
// and its job's jobs/X/.lock exclusively. Without it two processes writing one directory destroy
// each other's jobs: a run started later reopens a job that another finished meanwhile.
//
// flock(2): the kernel releases the lock when the last process holding it ends, however it ends.
// Forked workers inherit it on purpose (a worker outliving its parent keeps the directory busy),
// programs they exec do not (O_CLOEXEC). A lock held elsewhere is refused at once (BusyError,
// exit 75), naming the directory and the holder.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>

namespace featurelab {

class DirectoryLock {
 public:
  enum class Mode { shared, exclusive };

  // Locks DIR/.lock (creating the file; DIR must exist). `what` names the directory in the
  // message when it is busy: "the run directory", "job 3".
  DirectoryLock(const std::filesystem::path& dir, Mode mode, const std::string& what);

  // How to wait for a lock held elsewhere instead of refusing it: `waiting(holders)` is told once
  // ("another featurelab process (pid 812)"), and the wait ends with BusyError when `stop` is set.
  struct Wait {
    const std::atomic<bool>* stop = nullptr;
    std::function<void(const std::string& holders)> waiting;
  };
  DirectoryLock(const std::filesystem::path& dir, Mode mode, const std::string& what, const Wait& wait);

  // Whether another process holds DIR/.lock, in any mode (shared) or exclusively (read from /proc/locks:
  // asking takes no lock, so it never gets in a holder's way). False where there is no lock file.
  static bool held_elsewhere(const std::filesystem::path& dir, Mode mode = Mode::shared);
  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

  // Empty while DIR/.lock is still the file this lock holds; otherwise why not ("was removed",
  // "was replaced"): the directory was deleted or moved under the run, and whatever is written at
  // its path now would land in a directory no lock protects and no run record describes.
  std::string lost(const std::filesystem::path& dir) const;

 private:
  int fd_ = -1;
};

// The name of the lock file, which a run directory may hold beside its results.
inline constexpr const char* kLockFileName = ".lock";

}  // namespace featurelab
