#include "kernel/job/provenance.hpp"

#include "kernel/job/build_revision.hpp"
#include "kernel/io/sha256.hpp"

#include <featurelab/data_files.hpp>
#include <featurelab/product_kernel.hpp>
#include <featurelab/version.hpp>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <unistd.h>

namespace featurelab {

namespace {

std::mutex& command_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<std::string>& command_line() {
  static std::vector<std::string> arguments;
  return arguments;
}

// What Slurm tells a batch step about itself (sbatch(1), OUTPUT ENVIRONMENT VARIABLES); absent outside Slurm.
nlohmann::json slurm_ids() {
  static const std::pair<const char*, const char*> kVariables[] = {
      {"job_id", "SLURM_JOB_ID"},           {"array_job_id", "SLURM_ARRAY_JOB_ID"},
      {"array_task_id", "SLURM_ARRAY_TASK_ID"}, {"restart_count", "SLURM_RESTART_COUNT"},
      {"cluster", "SLURM_CLUSTER_NAME"},    {"partition", "SLURM_JOB_PARTITION"},
      {"node", "SLURMD_NODENAME"},          {"cpus_per_task", "SLURM_CPUS_PER_TASK"}};
  nlohmann::json ids = nlohmann::json::object();
  for (const auto& [key, variable] : kVariables) {
    if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') ids[key] = value;
  }
  return ids;
}

}  // namespace

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

void set_command_line(std::vector<std::string> arguments) {
  const std::lock_guard<std::mutex> lock(command_mutex());
  command_line() = std::move(arguments);
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::json provenance(const std::string& started, const std::string& ended) {
  nlohmann::json p;
  {
    const std::lock_guard<std::mutex> lock(command_mutex());
    p["command"] = command_line();
  }
  p["host"] = host_name();
  p["pid"] = ::getpid();
  const std::string revision = build_git_revision();
  p["build"] = {{"featurelab_version", FEATURELAB_SDK_VERSION},
                {"git_revision", revision.empty() ? nlohmann::json(nullptr) : nlohmann::json(revision)},
                {"git_dirty", build_git_dirty()}};
  // The kernel of the blocked products rounds the products its own way (featurelab/product_kernel.hpp).
  p["product_kernel"] = {{"kernel", product_kernel_name(product_kernel())}, {"why", product_kernel_reason()}};
  const nlohmann::json slurm = slurm_ids();
  if (!slurm.empty()) p["slurm"] = slurm;
  p["started"] = started;
  if (!ended.empty()) p["ended"] = ended;
  return p;
}

nlohmann::json data_file_hashes() {
  nlohmann::json hashes = nlohmann::json::object();
  for (const auto& file : noted_data_files()) {
    try {
      hashes[file.string()] = sha256_of_file(file);
    } catch (const std::exception& e) {
      hashes[file.string()] = std::string("unreadable: ") + e.what();
    }
  }
  return hashes;
}

}  // namespace featurelab
