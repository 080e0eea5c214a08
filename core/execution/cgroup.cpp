#include "execution/cgroup.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace featurelab::cgroup {

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(separator, begin);
    parts.emplace_back(text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// This process's path in the hierarchy that holds `controller`: "0::/a/b" for v2 (controller
// empty), "4:cpu,cpuacct:/a/b" for v1.
std::optional<std::string> process_path(const std::string& controller) {
  std::istringstream lines(read_text("/proc/self/cgroup"));
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const auto controllers = split(std::string_view(line).substr(first + 1, second - first - 1), ',');
    const bool match = controller.empty() ? line.compare(0, second + 1, "0::") == 0 : contains(controllers, controller);
    if (match) return line.substr(second + 1);
  }
  return std::nullopt;
}

struct Mount {
  std::string root;   // the hierarchy's directory mounted here ("/" unless a container bind-mounts its own)
  fs::path point;
};

// The mount of the v2 hierarchy (controller empty) or of the v1 hierarchy holding `controller`.
std::optional<Mount> hierarchy_mount(const std::string& controller) {
  // mountinfo: "36 25 0:31 / /sys/fs/cgroup/cpu rw,nosuid - cgroup cgroup rw,cpu,cpuacct"
  std::istringstream lines(read_text("/proc/self/mountinfo"));
  for (std::string line; std::getline(lines, line);) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    const auto before = split(line.substr(0, dash), ' ');
    const auto after = split(line.substr(dash + 3), ' ');
    if (before.size() < 5 || after.size() < 3) continue;
    const std::string& type = after[0];
    const bool match = controller.empty() ? type == "cgroup2" : type == "cgroup" && contains(split(after[2], ','), controller);
    if (match) return Mount{before[3], before[4]};
  }
  return std::nullopt;
}

std::vector<fs::path> directories_in(const Mount& mount, const std::string& path) {
  // Under a cgroup namespace or a container's own mount the process's path may not lie below the
  // mount's root: then the mount point itself is the closest directory we can see.
  fs::path dir = mount.point;
  const std::string root = mount.root == "/" ? "" : mount.root;
  if (path.compare(0, root.size(), root) == 0) {
    const fs::path below = fs::path(path.substr(root.size())).relative_path();
    if (std::error_code ec; fs::is_directory(mount.point / below, ec)) dir = mount.point / below;
  }
  std::vector<fs::path> dirs;
  for (fs::path d = dir.lexically_normal();; d = d.parent_path()) {
    dirs.push_back(d);
    if (d == mount.point.lexically_normal() || d == d.parent_path()) break;
  }
  return dirs;
}

}  // namespace

std::vector<fs::path> directories(const std::string& controller) {
  // v1 first: where a controller is mounted as v1 (a hybrid setup), v2 does not control it.
  if (auto mount = hierarchy_mount(controller)) {
    if (auto path = process_path(controller)) return directories_in(*mount, *path);
  }
  if (auto mount = hierarchy_mount("")) {
    if (auto path = process_path("")) return directories_in(*mount, *path);
  }
  return {};
}

std::optional<double> cpus_of_cpu_max(std::string_view cpu_max) {
  std::istringstream in{std::string(cpu_max)};
  std::string quota;
  long long period = 0;
  if (!(in >> quota >> period) || quota == "max") return std::nullopt;
  try {
    return cpus_of_cfs_quota(std::stoll(quota), period);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<double> cpus_of_cfs_quota(long long quota_us, long long period_us) {
  if (quota_us <= 0 || period_us <= 0) return std::nullopt;
  return double(quota_us) / double(period_us);
}

std::optional<double> cpu_quota() {
  std::optional<double> smallest;
  auto take = [&](std::optional<double> cpus) {
    if (cpus && (!smallest || *cpus < *smallest)) smallest = cpus;
  };
  for (const fs::path& dir : directories("cpu")) {
    std::error_code ec;
    if (fs::exists(dir / "cpu.max", ec)) take(cpus_of_cpu_max(read_text(dir / "cpu.max")));
    if (fs::exists(dir / "cpu.cfs_quota_us", ec)) {
      try {
        take(cpus_of_cfs_quota(std::stoll(read_text(dir / "cpu.cfs_quota_us")),
                               std::stoll(read_text(dir / "cpu.cfs_period_us"))));
      } catch (const std::exception&) {
      }
    }
  }
  return smallest;
}

long long counter(std::string_view text, std::string_view key) {
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name;
    long long value = 0;
    if (fields >> name >> value && name == key) return value;
  }
  return -1;
}

long long oom_kills_in_cgroup() {
  const auto dirs = directories("memory");
  if (dirs.empty()) return -1;
  std::error_code ec;
  if (fs::exists(dirs.front() / "memory.events", ec)) return counter(read_text(dirs.front() / "memory.events"), "oom_kill");
  if (fs::exists(dirs.front() / "memory.oom_control", ec)) {
    return counter(read_text(dirs.front() / "memory.oom_control"), "oom_kill");
  }
  return -1;
}

long long oom_kills_on_machine() { return counter(read_text("/proc/vmstat"), "oom_kill"); }

}  // namespace featurelab::cgroup
