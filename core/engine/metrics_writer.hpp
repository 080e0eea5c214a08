// Where a job's measurements go: metrics.jsonl (one line per step and metric, flushed as written,
// so a crash loses at most the line being written), tables as CSV files, and the history kept in
// memory for assertions and summary.json.
#pragma once

#include <featurelab/probe.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace featurelab {

class MetricsWriter {
 public:
  explicit MetricsWriter(const std::filesystem::path& dir);

  void scalar(Index step, const std::string& metric, double value);
  void table(Index step, const std::string& name, const Table& table);

  // metric -> [(step, value)], in the order recorded.
  const std::map<std::string, std::vector<std::pair<Index, double>>>& history() const { return history_; }
  std::map<std::string, double> final_values() const;

 private:
  std::filesystem::path dir_;
  std::ofstream metrics_;
  std::map<std::string, std::vector<std::pair<Index, double>>> history_;
};

// JSON number: shortest text that reads back to the same double; null for NaN and infinities.
std::string json_number(double value);

}  // namespace featurelab
