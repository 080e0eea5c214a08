// fork() per job; progress through shared memory; waitpid() tells crashes from failures.
#include "engine/workers.hpp"

#include "engine/crash_site.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sys/mman.h>
#include <sys/resource.h>
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
};

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Resident memory of a process in MiB (/proc/PID/statm), 0 when unknown.
double resident_mib(pid_t pid) {
  std::FILE* f = std::fopen(fmt::format("/proc/{}/statm", pid).c_str(), "r");
  if (!f) return 0;
  unsigned long long size = 0, resident = 0;
  const int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (got != 2) return 0;
  return double(resident) * double(::sysconf(_SC_PAGESIZE)) / double(1 << 20);
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exit status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return fmt::format("crashed: {} (signal {})", strsignal(sig), sig);
  }
  return "ended abnormally";
}

// A job over its time or memory limit is first asked where it is (its handler writes the plugin
// file it is executing into its slot), then killed.
void kill_noting_site(pid_t pid) {
  ::kill(pid, kWhereAreYouSignal);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(pid, SIGKILL);
}

}  // namespace

void run_in_workers(const std::vector<std::size_t>& todo, const std::vector<std::string>& labels,
                    const std::function<int(std::size_t, ProgressSlot*)>& child,
                    const std::function<void(std::size_t, const WorkerExit&)>& on_exit,
                    const WorkerPoolOptions& options) {
  const int workers = std::max(1, options.workers);
  void* shared = ::mmap(nullptr, sizeof(ProgressSlot) * static_cast<std::size_t>(workers), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error("cannot map shared memory for progress");
  auto* slots = new (shared) ProgressSlot[static_cast<std::size_t>(workers)];
  std::vector<bool> slot_busy(static_cast<std::size_t>(workers), false);
  std::map<pid_t, Running> running;
  std::set<pid_t> timed_out, over_memory;
  std::size_t next = 0, done = 0, failed = 0;
  const auto run_start = Clock::now();
  auto last_draw = Clock::now() - std::chrono::seconds(1);
  int drawn_lines = 0;

  auto erase_lines = [&] {
    for (int i = 0; i < drawn_lines; ++i) std::fprintf(stderr, "\033[1A\r\033[K");
    drawn_lines = 0;
  };
  auto draw = [&](bool force) {
    if (!options.live) return;
    const auto now = Clock::now();
    if (!force && now - last_draw < std::chrono::milliseconds(200)) return;
    last_draw = now;
    erase_lines();
    for (const auto& [pid, r] : running) {
      const ProgressSlot& s = slots[r.slot];
      const double elapsed = std::chrono::duration<double>(now - r.started).count();
      const auto step = s.step.load(), total = s.total.load();
      std::fprintf(stderr, "  %-46s step %lld/%lld  loss %.4g  %.1fs\n", labels[r.job].substr(0, 46).c_str(),
                   static_cast<long long>(step), static_cast<long long>(total), s.loss.load(), elapsed);
      ++drawn_lines;
    }
    const double elapsed = std::chrono::duration<double>(now - run_start).count();
    const std::size_t finished = done + failed;
    // Progress in jobs, counting the running ones by their steps, gives the ETA.
    double progress = static_cast<double>(finished);
    for (const auto& [pid, r] : running) {
      const auto total = slots[r.slot].total.load();
      if (total > 0) progress += static_cast<double>(slots[r.slot].step.load()) / static_cast<double>(total);
    }
    const double eta = progress > 0 ? elapsed / progress * (static_cast<double>(todo.size()) - progress) : 0.0;
    std::fprintf(stderr, "jobs: %zu done, %zu failed, %zu running, %zu/%zu  %.1fs  eta %.0fs\n", done, failed,
                 running.size(), finished, todo.size(), elapsed, eta);
    ++drawn_lines;
    std::fflush(stderr);
  };

  auto stopping = [&] { return options.stop && options.stop->load(); };
  // `--jobs N` is N cores: while jobs wait each running job has one; once the queue is empty the
  // cores of finished jobs go to the ones still running (their OpenMP loops, from their next step).
  auto share_cores = [&] {
    if (next < todo.size() || running.empty()) return;
    const int count = static_cast<int>(running.size());
    int index = 0;
    for (const auto& [child_pid, r] : running) {
      slots[r.slot].threads.store(workers / count + (index++ < workers % count ? 1 : 0));
    }
  };
  bool forwarded = false;
  while ((next < todo.size() && !stopping()) || !running.empty()) {
    while (next < todo.size() && static_cast<int>(running.size()) < workers && !stopping()) {
      int slot = 0;
      while (slot_busy[static_cast<std::size_t>(slot)]) ++slot;
      new (&slots[slot]) ProgressSlot();
      const std::size_t job = todo[next++];
      std::fflush(nullptr);
      const pid_t pid = ::fork();
      if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
      if (pid == 0) {
        install_crash_site_handlers(slots[slot].crash_site, sizeof(slots[slot].crash_site));
        if (options.job_memory_mb > 0 && !kAddressSanitizer) {
          const rlim_t bytes = static_cast<rlim_t>(options.job_memory_mb) << 20;
          const rlimit limit{bytes, bytes};
          ::setrlimit(RLIMIT_AS, &limit);
        }
        int code = 1;
        try {
          code = child(job, &slots[slot]);
        } catch (...) {
          code = 1;
        }
        std::fflush(nullptr);
        ::_exit(code);
      }
      slot_busy[static_cast<std::size_t>(slot)] = true;
      running[pid] = {job, slot, Clock::now()};
    }
    share_cores();
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid > 0 && running.count(pid)) {
      const Running r = running[pid];
      running.erase(pid);
      slot_busy[static_cast<std::size_t>(r.slot)] = false;
      WorkerExit exit;
      exit.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
      exit.reason = exit.ok ? "" : describe_status(status);
      if (timed_out.erase(pid)) exit.reason = fmt::format("timed out after {:g} s (experiment.timeout or --job-timeout)", options.job_timeout);
      if (over_memory.erase(pid)) exit.reason = fmt::format("out of memory: over the {} MiB of --job-memory", options.job_memory_mb);
      exit.seconds = std::chrono::duration<double>(Clock::now() - r.started).count();
      if (!exit.ok) exit.site = std::string(slots[r.slot].crash_site, ::strnlen(slots[r.slot].crash_site, sizeof(slots[r.slot].crash_site)));
      (exit.ok ? done : failed)++;
      share_cores();
      erase_lines();
      on_exit(r.job, exit);
      draw(true);
      continue;
    }
    if (pid < 0 && errno == ECHILD) break;
    if (stopping() && !forwarded) {
      // Ctrl-C at a terminal reaches the workers too; a SIGINT sent to this process alone is
      // passed on, so running jobs finish their step, write their results and stop.
      forwarded = true;
      for (const auto& [child_pid, r] : running) ::kill(child_pid, SIGINT);
    }
    if (options.job_timeout > 0) {
      const auto now = Clock::now();
      for (const auto& [child_pid, r] : running) {
        if (std::chrono::duration<double>(now - r.started).count() > options.job_timeout &&
            timed_out.insert(child_pid).second) {
          kill_noting_site(child_pid);
        }
      }
    }
    if (options.job_memory_mb > 0) {
      // The address-space limit set in the child makes an allocation fail inside the job; this
      // watch on the resident size is what holds the limit where that cannot be set (under
      // AddressSanitizer, whose shadow memory needs terabytes of address space).
      for (const auto& [child_pid, r] : running) {
        if (resident_mib(child_pid) > double(options.job_memory_mb) && over_memory.insert(child_pid).second) {
          kill_noting_site(child_pid);
        }
      }
    }
    draw(false);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  erase_lines();
  ::munmap(shared, sizeof(ProgressSlot) * static_cast<std::size_t>(workers));
}

}  // namespace featurelab
