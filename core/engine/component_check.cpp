#include "engine/component_check.hpp"

#include "engine/job_components.hpp"
#include "engine/job_memory_limit.hpp"
#include "errors.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

namespace featurelab {

namespace {

// One line per record on the pipe: "P<TAB>point" before a point is built, "E<TAB>point<TAB>where<TAB>message".
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

[[noreturn]] void build_every_point(const RunPlan& plan, Catalog& catalog, int fd) {
  const std::uint64_t seed = static_cast<std::uint64_t>(plan.points.front().seeds.front());
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    write_all(fd, "P\t" + std::to_string(i) + "\n");
    try {
      JobComponents components;
      build_components(plan.points[i], catalog, seed, nullptr, components);
    } catch (const ComponentError& e) {
      write_all(fd, "E\t" + std::to_string(i) + "\t" + one_line(e.where()) + "\t" + one_line(e.what()) + "\n");
    } catch (const std::exception& e) {
      write_all(fd, "E\t" + std::to_string(i) + "\t" + one_line(plan.file.string()) + "\t" + one_line(e.what()) + "\n");
    }
  }
  ::_exit(0);
}

std::string label_of(const RunPlan& plan, std::size_t point) {
  for (const auto& job : plan.jobs) {
    if (job.point == point) return job.point_label();
  }
  return "";
}

}  // namespace

void check_components(const RunPlan& plan, Catalog& catalog, std::size_t job_memory_mib) {
  if (plan.points.empty()) return;
  int fds[2];
  if (::pipe(fds) != 0) throw Error(std::string("cannot check the components: pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw Error(std::string("cannot check the components: fork: ") + std::strerror(errno));
  if (child == 0) {
    ::close(fds[0]);
    if (job_memory_mib > 0 && !kAddressSanitizer) limit_job_memory(job_memory_mib, 1);
    build_every_point(plan, catalog, fds[1]);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }

  // (where, message) -> the points it occurs at: one diagnostic per problem, not one per point.
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> problems;
  std::size_t last_point = 0;
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
    if (fields[0] == "P" && fields.size() == 2) last_point = std::stoul(fields[1]);
    if (fields[0] == "E" && fields.size() == 4) problems[{fields[2], fields[3]}].push_back(std::stoul(fields[1]));
  }
  std::vector<Diagnostic> errors;
  const bool swept = plan.points.size() > 1;
  for (const auto& [problem, points] : problems) {
    std::string where_in_sweep;
    if (swept && points.size() < plan.points.size()) {
      for (std::size_t k = 0; k < points.size() && k < 3; ++k) {
        where_in_sweep += (k ? "; " : " (at sweep point ") + label_of(plan, points[k]);
      }
      where_in_sweep += points.size() > 3 ? "; and " + std::to_string(points.size() - 3) + " more)" : ")";
    }
    errors.push_back({problem.first, problem.second + where_in_sweep});
  }
  if (WIFSIGNALED(status)) {
    const std::string label = swept ? " at sweep point " + label_of(plan, last_point) : "";
    errors.push_back({plan.file.string(), "building the components" + label + " crashed (" +
                                              std::string(strsignal(WTERMSIG(status))) + ", signal " +
                                              std::to_string(WTERMSIG(status)) + "): a plugin's constructor is broken"});
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    errors.push_back({plan.file.string(), "building the components exited with status " +
                                              std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1)});
  }
  if (!errors.empty()) throw ConfigError(errors);
}

}  // namespace featurelab
