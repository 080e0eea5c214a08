#include "kernel/job/sibling_median.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <vector>

namespace featurelab {

namespace fs = std::filesystem;

SiblingMedian::SiblingMedian(PruneRule rule, fs::path job_dir) : rule_(std::move(rule)), job_dir_(std::move(job_dir)) {}

void SiblingMedian::refresh() {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(job_dir_.parent_path(), error)) {
    if (entry.path().filename() == job_dir_.filename() || !entry.is_directory(error)) continue;
    Sibling& sibling = siblings_[entry.path().filename().string()];
    std::ifstream in(entry.path() / "metrics.jsonl", std::ios::binary);
    if (!in) continue;
    in.seekg(static_cast<std::streamoff>(sibling.offset));
    std::string line;
    // Whole lines only: one without its newline is being written, and is read at the next evaluation.
    while (std::getline(in, line) && !in.eof()) {
      sibling.offset += line.size() + 1;
      const auto record = nlohmann::json::parse(line, nullptr, false);
      if (!record.is_object() || record.value("metric", "") != rule_.metric || !record.contains("step")) continue;
      const auto& value = record.at("value");
      if (value.is_number() && record.at("step").is_number_integer()) {
        sibling.values[record.at("step").get<Index>()] = value.get<double>();
      }
    }
  }
}

std::optional<std::string> SiblingMedian::verdict(Index step, double value) {
  if (step < rule_.after || step == 0) return std::nullopt;
  refresh();
  std::vector<double> there;
  for (const auto& [name, sibling] : siblings_) {
    if (const auto found = sibling.values.find(step); found != sibling.values.end() && std::isfinite(found->second)) {
      there.push_back(found->second);
    }
  }
  if (static_cast<Index>(there.size()) < rule_.min_jobs) return std::nullopt;
  std::sort(there.begin(), there.end());
  const std::size_t n = there.size();
  const double median = n % 2 == 1 ? there[n / 2] : 0.5 * (there[n / 2 - 1] + there[n / 2]);
  const bool worse = rule_.maximize ? value < median : value > median;
  if (!worse && std::isfinite(value)) return std::nullopt;
  return fmt::format("{} = {} at step {}, {} the median {} of {} other jobs there ([prune]: goal {})", rule_.metric, value, step,
                     rule_.maximize ? "below" : "above", median, n, rule_.maximize ? "max" : "min");
}

}  // namespace featurelab
