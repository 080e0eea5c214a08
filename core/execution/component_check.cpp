#include "execution/component_check.hpp"

#include "execution/crash_site.hpp"
#include "kernel/job/job_components.hpp"
#include "execution/job_memory_limit.hpp"
#include "kernel/job/out_of_memory.hpp"
#include "execution/stop_signals.hpp"
#include <featurelab/core/errors.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace featurelab {

namespace {

using Clock = std::chrono::steady_clock;

// One line per record on the pipe: "P<TAB>point" before a point is built, "E<TAB>point<TAB>where<TAB>message", and
// "D" once every point is built (an exit(0) in a constructor leaves it out).
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return text;
}

void write_all(int fd, const std::string& text) {
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    left -= static_cast<std::size_t>(n);
  }
}

void build_every_point(const RunPlan& plan, Catalog& catalog, int fd) {
  const std::uint64_t seed = static_cast<std::uint64_t>(plan.points.front().seeds.front());
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    write_all(fd, "P\t" + std::to_string(i) + "\n");
    try {
      JobComponents components;
      build_components(plan.points[i], catalog, seed, nullptr, components);
    } catch (const ComponentError& e) {
      write_all(fd, "E\t" + std::to_string(i) + "\t" + one_line(e.where()) + "\t" + one_line(e.what()) + "\n");
    } catch (const std::bad_alloc&) {
      write_all(fd, "E\t" + std::to_string(i) + "\t" + one_line(plan.file.string()) + "\t" +
                        out_of_memory_in("building the components") + "\n");
    } catch (const std::exception& e) {
      write_all(fd, "E\t" + std::to_string(i) + "\t" + one_line(plan.file.string()) + "\t" + one_line(e.what()) + "\n");
    }
  }
  write_all(fd, "D\n");
}

// The child's side of fork(): set up as a worker is (workers.cpp), then build; it never returns.
[[noreturn]] void run_check(pid_t parent, const sigset_t& signal_mask, const RunPlan& plan, Catalog& catalog, int fd,
                            char* site, std::size_t site_size, std::size_t memory_mib) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  // Nothing to save: a stop signal sent to it directly (a scheduler signals every process) ends it at once.
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
  ::sigprocmask(SIG_SETMASK, &signal_mask, nullptr);
  install_crash_site_handlers(site, site_size);
  if (memory_mib > 0 && !kAddressSanitizer) limit_job_memory(memory_mib, 1);
  try {
    build_every_point(plan, catalog, fd);
  } catch (...) {
    ::_exit(1);
  }
  std::fflush(nullptr);
  ::_exit(0);
}

std::string label_of(const RunPlan& plan, std::size_t point) {
  for (const auto& job : plan.jobs) {
    if (job.point == point) return job.point_label();
  }
  return "";
}

// The plugin file the check was executing, in memory the parent reads after the child is gone.
class SharedSite {
 public:
  SharedSite() {
    memory_ = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory_ == MAP_FAILED) throw Error(std::string("cannot check the components: mmap: ") + std::strerror(errno));
  }
  ~SharedSite() { ::munmap(memory_, kBytes); }
  SharedSite(const SharedSite&) = delete;
  SharedSite& operator=(const SharedSite&) = delete;
  char* data() { return static_cast<char*>(memory_); }
  static constexpr std::size_t kBytes = 512;
  std::string text() const { return {static_cast<const char*>(memory_), ::strnlen(static_cast<const char*>(memory_), kBytes)}; }

 private:
  void* memory_ = nullptr;
};

// The pipe's read end, drained without blocking: a helper process a constructor left holding the write end (a plain
// fork inherits it) must not keep the check waiting for an end of file.
class CheckPipe {
 public:
  CheckPipe() {
    if (::pipe2(fds_, O_CLOEXEC) != 0) throw Error(std::string("cannot check the components: pipe: ") + std::strerror(errno));
  }
  ~CheckPipe() {
    for (int fd : fds_) {
      if (fd >= 0) ::close(fd);
    }
  }
  CheckPipe(const CheckPipe&) = delete;
  CheckPipe& operator=(const CheckPipe&) = delete;
  int write_end() const { return fds_[1]; }
  void close_write_end() {
    ::close(fds_[1]);
    fds_[1] = -1;
    ::fcntl(fds_[0], F_SETFL, ::fcntl(fds_[0], F_GETFL) | O_NONBLOCK);
  }
  // Appends what is there, waiting at most `wait_ms` for the first byte.
  void read_into(std::string& text, int wait_ms) const {
    pollfd p{fds_[0], POLLIN, 0};
    if (::poll(&p, 1, wait_ms) <= 0) return;
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(fds_[0], buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      text.append(buffer, static_cast<std::size_t>(n));
    }
  }

 private:
  int fds_[2] = {-1, -1};
};

// The records of a finished check: the problems by (where, message) with their points, and the last point begun.
struct CheckRecords {
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> problems;
  std::size_t last_point = 0;
  std::size_t points_begun = 0;
  bool finished = false;  // the "D" line
};

CheckRecords parse_records(const std::string& text) {
  CheckRecords records;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) break;  // a torn last line: the child died mid-write
    const std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    std::vector<std::string> fields;
    for (std::size_t from = 0;;) {
      const std::size_t tab = line.find('\t', from);
      fields.push_back(line.substr(from, tab == std::string::npos ? std::string::npos : tab - from));
      if (tab == std::string::npos) break;
      from = tab + 1;
    }
    if (fields[0] == "P" && fields.size() == 2) {
      records.last_point = std::stoul(fields[1]);
      ++records.points_begun;
    }
    if (fields[0] == "D") records.finished = true;
    if (fields[0] == "E" && fields.size() == 4) records.problems[{fields[2], fields[3]}].push_back(std::stoul(fields[1]));
  }
  return records;
}

// Asks the check where it is (its handler writes the plugin file into the shared site), then kills its group.
void kill_noting_site(pid_t child) {
  ::kill(child, kWhereAreYouSignal);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(-child, SIGKILL);
}

}  // namespace

void check_components(const RunPlan& plan, Catalog& catalog, const ComponentCheckLimits& limits) {
  if (plan.points.empty()) return;
  const double timeout = limits.timeout > 0                  ? limits.timeout
                         : plan.points.front().timeout > 0 ? plan.points.front().timeout
                                                            : kComponentCheckSeconds;
  // Ctrl-C, SIGTERM and SIGHUP stop the check (and whatever host handlers there were, Python's, come back after).
  const ScopedStopHandlers stop_handlers;
  CheckPipe pipe;
  SharedSite site;
  std::fflush(nullptr);
  const sigset_t stop_set = stop_signal_set();
  sigset_t previous;
  ::sigprocmask(SIG_BLOCK, &stop_set, &previous);
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child == 0) run_check(parent, previous, plan, catalog, pipe.write_end(), site.data(), SharedSite::kBytes, limits.memory_mib);
  const int fork_error = errno;
  if (child > 0) ::setpgid(child, child);
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  if (child < 0) throw Error(std::string("cannot check the components: fork: ") + std::strerror(fork_error));
  pipe.close_write_end();

  // Until the child ends: its records read as they come (a point's time limit starts at its "P" line), the stop
  // request, Ctrl-Z, the time and memory limits watched.
  std::string text;
  std::size_t points_seen = 0;
  auto point_started = Clock::now();
  bool timed_out = false, over_memory = false;
  int status = 0;
  for (;;) {
    pipe.read_into(text, 20);
    if (const std::size_t begun = parse_records(text).points_begun; begun != points_seen) {
      points_seen = begun;
      point_started = Clock::now();
    }
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == child) break;
    if (stop_requested_flag().load()) {
      ::kill(-child, SIGKILL);
      while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
      throw StoppedError(fmt::format("stopped by signal {} while the components were being built, before any job",
                                     stop_signal() ? stop_signal() : SIGINT),
                         stopped_exit_code());
    }
    if (take_suspend_request()) {
      ::kill(-child, SIGSTOP);
      const auto stopped_at = Clock::now();
      suspend_self();
      point_started += Clock::now() - stopped_at;
      ::kill(-child, SIGCONT);
    }
    if (std::chrono::duration<double>(Clock::now() - point_started).count() > timeout) {
      timed_out = true;
      kill_noting_site(child);
    } else if (limits.memory_mib > 0 && private_resident_mib(child) > double(limits.memory_mib)) {
      over_memory = true;
      kill_noting_site(child);
    }
  }
  // What it started and left (a helper process, a forked copy) goes with it; its group id is its pid until the reap.
  ::kill(-child, SIGKILL);
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  pipe.read_into(text, 0);
  const CheckRecords records = parse_records(text);

  std::vector<Diagnostic> errors;
  const bool swept = plan.points.size() > 1;
  for (const auto& [problem, points] : records.problems) {
    std::string where_in_sweep;
    if (swept && points.size() < plan.points.size()) {
      for (std::size_t k = 0; k < points.size() && k < 3; ++k) {
        where_in_sweep += (k ? "; " : " (at sweep point ") + label_of(plan, points[k]);
      }
      where_in_sweep += points.size() > 3 ? "; and " + std::to_string(points.size() - 3) + " more)" : ")";
    }
    errors.push_back({problem.first, problem.second + where_in_sweep});
  }
  const std::string label = swept ? " of sweep point " + label_of(plan, records.last_point) : "";
  const std::string where = site.text().empty() ? "" : " (in " + site.text() + ")";
  if (timed_out) {
    errors.push_back({plan.file.string(), fmt::format("building the components{} did not finish within {:g} s{}: a "
                                                      "constructor or a module import that does not return? (the "
                                                      "limit: --job-timeout, experiment.timeout, or {:g} s)",
                                                      label, timeout, where, kComponentCheckSeconds)});
  } else if (over_memory) {
    errors.push_back({plan.file.string(), fmt::format("building the components{} took more than the {} MiB of "
                                                      "--job-memory{}",
                                                      label, limits.memory_mib, where)});
  } else if (WIFSIGNALED(status)) {
    errors.push_back({plan.file.string(), fmt::format("building the components{} crashed ({}, signal {}){}: a plugin's "
                                                      "constructor is broken",
                                                      label, strsignal(WTERMSIG(status)), WTERMSIG(status), where)});
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    errors.push_back({plan.file.string(), fmt::format("building the components{} exited with status {}{}: a plugin "
                                                      "called exit()?",
                                                      label, WIFEXITED(status) ? WEXITSTATUS(status) : -1, where)});
  } else if (!records.finished) {
    errors.push_back({plan.file.string(), fmt::format("building the components{} ended (exit status 0) before it was "
                                                      "done: a plugin called exit()?",
                                                      label)});
  }
  if (!errors.empty()) throw ConfigError(errors);
}

}  // namespace featurelab
