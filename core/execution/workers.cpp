// fork() per job; progress through shared memory; waitpid() tells crashes from failures.
#include "execution/workers.hpp"

#include "execution/allowed_cpus.hpp"
#include "execution/cgroup.hpp"
#include "execution/crash_site.hpp"
#include "execution/job_memory_limit.hpp"
#include "execution/stop_signals.hpp"
#include "execution/terminal_progress.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace featurelab {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  std::size_t job;
  int slot;
  Clock::time_point started;
  // Out-of-memory kills counted when the job started, to tell the OOM killer's SIGKILL from another's.
  long long cgroup_oom_kills;
  long long machine_oom_kills;
};

// The progress slots, in memory the workers share with the parent.
class SharedSlots {
 public:
  explicit SharedSlots(int count) : bytes_(sizeof(ProgressSlot) * static_cast<std::size_t>(count)) {
    memory_ = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory_ == MAP_FAILED) throw std::runtime_error("cannot map shared memory for progress");
    slots_ = new (memory_) ProgressSlot[static_cast<std::size_t>(count)];
  }
  ~SharedSlots() { ::munmap(memory_, bytes_); }
  SharedSlots(const SharedSlots&) = delete;
  SharedSlots& operator=(const SharedSlots&) = delete;
  ProgressSlot& operator[](int i) { return slots_[i]; }

 private:
  std::size_t bytes_;
  void* memory_ = nullptr;
  ProgressSlot* slots_ = nullptr;
};

// A SIGKILL the parent did not send: another process, or the out-of-memory killer, which only the
// kill counters can tell apart.
std::string killed_reason(const Running& r) {
  const long long in_cgroup = cgroup::oom_kills_in_cgroup(), on_machine = cgroup::oom_kills_on_machine();
  if (r.cgroup_oom_kills >= 0 && in_cgroup > r.cgroup_oom_kills) {
    return "killed (signal 9) by the out-of-memory killer: the memory limit of this run's cgroup was reached (a "
           "scheduler's limit such as Slurm's --mem, or a container's); give the run more memory, or set --job-memory "
           "below that limit so that a job over it fails with its own message";
  }
  if (r.machine_oom_kills >= 0 && on_machine > r.machine_oom_kills) {
    return "killed (signal 9), most likely by the out-of-memory killer (the machine ran out of memory while the job "
           "ran; see dmesg); set --job-memory so that a job over it fails with its own message";
  }
  return "killed (signal 9) by another process or the out-of-memory killer (featurelab did not kill it; see dmesg)";
}

std::string describe_status(int status, const Running& r) {
  if (WIFEXITED(status)) return fmt::format("exit status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGKILL) return killed_reason(r);
    return fmt::format("crashed: {} (signal {})", strsignal(sig), sig);
  }
  return "ended abnormally";
}

// A job over its time or memory limit is first asked where it is (its handler writes the plugin
// file it is executing into its slot), then killed with everything it started (its process group).
void kill_noting_site(pid_t pid) {
  ::kill(pid, kWhereAreYouSignal);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(-pid, SIGKILL);
}

void note_failure(ProgressSlot& slot, const char* what) {
  std::strncpy(slot.failure, what, sizeof(slot.failure) - 1);
  slot.failure[sizeof(slot.failure) - 1] = '\0';
}

// The child's side of fork(): it never returns.
[[noreturn]] void run_worker(pid_t parent, const sigset_t& signal_mask, ProgressSlot& slot, std::size_t job,
                             const WorkerPoolOptions& options, int cores,
                             const std::function<int(std::size_t, ProgressSlot*)>& child) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);  // the parent died before prctl: nobody would supervise the job
  install_worker_stop_handlers();
  ::sigprocmask(SIG_SETMASK, &signal_mask, nullptr);
  install_crash_site_handlers(slot.crash_site, sizeof(slot.crash_site));
  if (options.job_memory_mb > 0 && !kAddressSanitizer) limit_job_memory(options.job_memory_mb, cores);
  int code = 1;
  try {
    code = child(job, &slot);
  } catch (const std::exception& e) {
    note_failure(slot, e.what());
  } catch (...) {
    note_failure(slot, "an exception that is not a std::exception");
  }
  std::fflush(nullptr);
  ::_exit(code);
}

// Reaps one ended worker: its pid (and status), 0 when none has ended, -1 when there is no child.
// What the job left in its process group (a plugin's subprocess) is killed first: until the reap,
// the worker's pid, and so its group's id, cannot be anyone else's.
pid_t reap_ended_worker(int& status) {
  siginfo_t info{};
  if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD ? -1 : 0;
  if (info.si_pid == 0) return 0;
  ::kill(-info.si_pid, SIGKILL);
  ::waitpid(info.si_pid, &status, 0);
  return info.si_pid;
}

// The way out when the loop itself fails: the workers are asked to stop (they finish their step
// and write their results), given a few seconds, then killed; none is left behind unreaped.
void stop_and_reap(std::map<pid_t, Running>& running) {
  for (const auto& [pid, r] : running) ::kill(pid, SIGTERM);
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (!running.empty() && Clock::now() < deadline) {
    int status = 0;
    const pid_t pid = reap_ended_worker(status);
    if (pid < 0) break;
    if (pid > 0) {
      running.erase(pid);
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (const auto& [pid, r] : running) {
    ::kill(-pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
  }
  running.clear();
}

// The parent's side: starts workers up to the capacity, reaps them as they end, and between polls passes on
// stop and suspend requests and holds the time and memory limits. Each step is one method.
class WorkerPool {
 public:
  WorkerPool(const std::vector<std::size_t>& todo, const std::vector<std::string>& labels,
             const std::function<int(std::size_t, ProgressSlot*)>& child,
             const std::function<bool(std::size_t, const WorkerExit&)>& on_exit, const WorkerPoolOptions& options)
      : todo_(todo), labels_(labels), child_(child), on_exit_(on_exit), options_(options),
        workers_(std::max(1, options.workers)),
        // The threads handed to jobs never total more than the CPUs: more only take turns on them.
        cores_(std::max(1, std::min(options.cores > 0 ? options.cores : workers_, allowed_cpus()))),
        slots_(workers_), slot_busy_(static_cast<std::size_t>(workers_), false),
        capacity_(static_cast<std::size_t>(workers_)), progress_(options.live, todo.size()) {}

  WorkerPoolReport run() {
    try {
      while (may_start() || !running_.empty()) {
        while (may_start() && running_.size() < capacity_ && start_next()) {
        }
        share_cores();
        if (run_lost()) break;
        if (reap_one()) continue;
        if (running_.empty()) continue;  // fork failed with none running: the loop ends
        forward_stop();
        pass_on_suspend();
        enforce_time_limit();
        enforce_memory_limit();
        draw(false);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    } catch (...) {
      progress_.erase();
      stop_and_reap(running_);
      throw;
    }
    progress_.erase();
    if (!report_.not_started_reason.empty()) report_.not_started = todo_.size() - next_;
    return report_;
  }

 private:
  bool stopping() const { return options_.stop && options_.stop->load(); }
  bool may_start() const { return next_ < todo_.size() && !stopping() && report_.not_started_reason.empty(); }

  // While jobs wait each running job has one core; once the queue is empty the cores of finished
  // jobs go to the ones still running (their OpenMP loops, from their next step).
  void share_cores() {
    if (may_start() || running_.empty()) return;
    const int count = static_cast<int>(running_.size());
    int index = 0;
    for (const auto& [child_pid, r] : running_) {
      slots_[r.slot].threads.store(std::max(1, cores_ / count + (index++ < cores_ % count ? 1 : 0)));
    }
  }

  // Forks the next job's worker; false when fork() failed (the job stays next in line).
  bool start_next() {
    int slot = 0;
    while (slot_busy_[static_cast<std::size_t>(slot)]) ++slot;
    new (&slots_[slot]) ProgressSlot();
    const std::size_t job = todo_[next_];
    std::fflush(nullptr);
    // Blocked across fork(): a stop signal arriving meanwhile reaches the new worker through its
    // own handlers (which only set its flag), not through the parent's copied into it.
    const sigset_t stop_set = stop_signal_set();
    sigset_t previous;
    ::sigprocmask(SIG_BLOCK, &stop_set, &previous);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) run_worker(parent, previous, slots_[slot], job, options_, cores_, child_);
    const int fork_error = errno;
    if (pid > 0) ::setpgid(pid, pid);  // also here, so that its group exists before any kill(-pid)
    ::sigprocmask(SIG_SETMASK, &previous, nullptr);
    if (pid < 0) {
      const char* limit = fork_error == EAGAIN ? "; the limit on processes (ulimit -u, a pids cgroup) is reached" : "";
      const std::string why = fmt::format("fork: {}{}", std::strerror(fork_error), limit);
      if (running_.empty()) {
        report_.not_started_reason = "cannot start a worker process (" + why + ")";
      } else if (running_.size() < capacity_) {
        capacity_ = running_.size();
        progress_.erase();
        if (options_.log) options_.log->warn("cannot start another worker process ({}); going on with {}", why, capacity_);
      }
      return false;
    }
    ++next_;
    slot_busy_[static_cast<std::size_t>(slot)] = true;
    running_[pid] = {job, slot, Clock::now(), cgroup::oom_kills_in_cgroup(), cgroup::oom_kills_on_machine()};
    return true;
  }

  // Records one ended worker, if any; false when none has ended.
  bool reap_one() {
    int status = 0;
    const pid_t pid = reap_ended_worker(status);
    if (pid < 0) running_.clear();  // no child left to wait for (reaped elsewhere): nothing to supervise
    if (pid <= 0) return false;
    const auto it = running_.find(pid);
    if (it == running_.end()) return true;
    const Running r = it->second;
    running_.erase(it);
    slot_busy_[static_cast<std::size_t>(r.slot)] = false;
    WorkerExit exit;
    exit.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    exit.reason = exit.ok ? "" : describe_status(status, r);
    const ProgressSlot& s = slots_[r.slot];
    if (!exit.ok && s.failure[0] != '\0') {
      exit.reason += ": " + std::string(s.failure, ::strnlen(s.failure, sizeof(s.failure)));
    }
    if (timed_out_.erase(pid)) {
      exit.reason = fmt::format("timed out after {:g} s (experiment.timeout or --job-timeout)", options_.job_timeout);
    }
    if (over_memory_.erase(pid)) exit.reason = fmt::format("out of memory: over the {} MiB of --job-memory", options_.job_memory_mb);
    exit.seconds = std::chrono::duration<double>(Clock::now() - r.started).count();
    if (!exit.ok) exit.site = std::string(s.crash_site, ::strnlen(s.crash_site, sizeof(s.crash_site)));
    exit.step = s.step.load();
    exit.total = s.total.load();
    share_cores();
    progress_.erase();
    (on_exit_(r.job, exit) ? done_ : failed_)++;
    draw(true);
    return true;
  }

  // The run directory gone (options.lost): the running jobs are killed and no other starts.
  bool run_lost() {
    if (!options_.lost) return false;
    report_.lost_reason = options_.lost();
    if (report_.lost_reason.empty()) return false;
    progress_.erase();
    stop_and_reap(running_);
    return true;
  }

  // A stop request (Ctrl-C, SIGTERM, SIGHUP) reaches the parent alone: each worker runs in a process group
  // of its own. Passed on once, it lets running jobs finish their step, write their results and stop.
  void forward_stop() {
    if (!stopping() || forwarded_) return;
    forwarded_ = true;
    const int sig = stop_signal() ? stop_signal() : SIGINT;
    for (const auto& [child_pid, r] : running_) ::kill(child_pid, sig);
  }

  // Ctrl-Z: the workers, in groups of their own, are stopped with the parent and continued with it; time
  // spent stopped does not count towards a job's time limit.
  void pass_on_suspend() {
    if (!take_suspend_request()) return;
    progress_.erase();
    for (const auto& [child_pid, r] : running_) ::kill(-child_pid, SIGSTOP);
    const auto stopped_at = Clock::now();
    suspend_self();
    const auto paused = Clock::now() - stopped_at;
    for (auto& [child_pid, r] : running_) {
      r.started += paused;
      ::kill(-child_pid, SIGCONT);
    }
  }

  void enforce_time_limit() {
    if (options_.job_timeout <= 0) return;
    const auto now = Clock::now();
    for (const auto& [child_pid, r] : running_) {
      if (std::chrono::duration<double>(now - r.started).count() > options_.job_timeout &&
          timed_out_.insert(child_pid).second) {
        kill_noting_site(child_pid);
      }
    }
  }

  // The memory limit set in the child makes an allocation fail inside the job; this watch on its private
  // resident memory is what holds the limit where that cannot be set (under AddressSanitizer, whose shadow
  // memory needs terabytes of address space).
  void enforce_memory_limit() {
    if (options_.job_memory_mb == 0) return;
    for (const auto& [child_pid, r] : running_) {
      if (private_resident_mib(child_pid) > double(options_.job_memory_mb) && over_memory_.insert(child_pid).second) {
        kill_noting_site(child_pid);
      }
    }
  }

  void draw(bool force) {
    if (!progress_.enabled()) return;
    const auto now = Clock::now();
    std::vector<RunningJobLine> lines;
    // Progress in jobs, counting the running ones by their steps, gives the ETA.
    double progress = static_cast<double>(done_ + failed_);
    for (const auto& [pid, r] : running_) {
      const ProgressSlot& s = slots_[r.slot];
      const auto step = s.step.load(), total = s.total.load();
      lines.push_back({labels_[r.job], step, total, s.loss.load(), std::chrono::duration<double>(now - r.started).count()});
      if (total > 0) progress += static_cast<double>(step) / static_cast<double>(total);
    }
    progress_.draw(lines, done_, failed_, progress, std::chrono::duration<double>(now - run_start_).count(), force);
  }

  const std::vector<std::size_t>& todo_;
  const std::vector<std::string>& labels_;
  const std::function<int(std::size_t, ProgressSlot*)>& child_;
  const std::function<bool(std::size_t, const WorkerExit&)>& on_exit_;
  const WorkerPoolOptions& options_;
  const int workers_;
  const int cores_;
  SharedSlots slots_;
  std::vector<bool> slot_busy_;
  std::map<pid_t, Running> running_;
  std::set<pid_t> timed_out_, over_memory_;
  std::size_t next_ = 0, done_ = 0, failed_ = 0;
  std::size_t capacity_;  // lowered when fork() fails
  WorkerPoolReport report_;
  bool forwarded_ = false;
  const Clock::time_point run_start_ = Clock::now();
  TerminalProgress progress_;
};

}  // namespace

WorkerPoolReport run_in_workers(const std::vector<std::size_t>& todo, const std::vector<std::string>& labels,
                                const std::function<int(std::size_t, ProgressSlot*)>& child,
                                const std::function<bool(std::size_t, const WorkerExit&)>& on_exit,
                                const WorkerPoolOptions& options) {
  // Ended workers must stay to be reaped: a SIGCHLD ignored by whoever started us would reap them
  // behind our back.
  std::signal(SIGCHLD, SIG_DFL);
  return WorkerPool(todo, labels, child, on_exit, options).run();
}

}  // namespace featurelab
