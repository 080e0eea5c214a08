// metrics.jsonl and table CSV files.
#include "engine/metrics_writer.hpp"

#include "io/atomic_file.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

namespace featurelab {

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  return fmt::format("{}", value);
}

MetricsWriter::MetricsWriter(const std::filesystem::path& dir) : dir_(dir) {
  metrics_.open(dir / "metrics.jsonl", std::ios::out | std::ios::trunc);
  if (!metrics_) throw Error((dir / "metrics.jsonl").string() + ": cannot write");
}

void MetricsWriter::scalar(Index step, const std::string& metric, double value) {
  // One write() per line (the stream's buffer is empty after each flush): a kill -9 leaves whole
  // lines only.
  const std::string line = fmt::format("{{\"step\":{},\"metric\":{},\"value\":{}}}\n", step,
                                       nlohmann::json(metric).dump(), json_number(value));
  metrics_.write(line.data(), static_cast<std::streamsize>(line.size()));
  metrics_.flush();
  history_[metric].emplace_back(step, value);
}

void MetricsWriter::table(Index step, const std::string& name, const Table& table) {
  const auto tables = dir_ / "tables";
  std::filesystem::create_directories(tables);
  const auto file = tables / (name + ".step" + std::to_string(step) + ".csv");
  std::ostringstream out;
  out << "row";
  for (Index j = 0; j < table.values.cols(); ++j) {
    out << "," << (static_cast<std::size_t>(j) < table.col_names.size() ? table.col_names[j] : std::to_string(j));
  }
  out << "\n";
  for (Index i = 0; i < table.values.rows(); ++i) {
    out << (static_cast<std::size_t>(i) < table.row_names.size() ? table.row_names[i] : std::to_string(i));
    for (Index j = 0; j < table.values.cols(); ++j) out << "," << json_number(table.values(i, j));
    out << "\n";
  }
  write_file_atomically(file, out.str());  // a killed job leaves no half table
}

std::map<std::string, double> MetricsWriter::final_values() const {
  std::map<std::string, double> out;
  for (const auto& [metric, points] : history_) {
    if (!points.empty()) out[metric] = points.back().second;
  }
  return out;
}

}  // namespace featurelab
