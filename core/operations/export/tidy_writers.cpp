#include <featurelab/core/tidy_writers.hpp>

#include "kernel/io/atomic_file.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fs = std::filesystem;

namespace featurelab {

TidyFormat tidy_format(const std::string& name) {
  if (name == "csv") return TidyFormat::Csv;
  if (name == "jsonl") return TidyFormat::Jsonl;
  if (name == "sqlite") return TidyFormat::Sqlite;
  throw Error("--format " + name + ": expected csv, jsonl or sqlite");
}

const std::vector<std::string>& tidy_job_columns() {
  static const std::vector<std::string> columns = {"run", "job", "job_id", "seed", "point", "status"};
  return columns;
}

namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The shortest text that reads back as the same double; pandas reads nan, inf and -inf.
std::string csv_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return fmt::format("{}", value);
}

std::string csv_header(const TidyTables& tables, bool with_step) {
  std::string header;
  for (const auto& c : tidy_job_columns()) header += (header.empty() ? "" : ",") + c;
  for (const auto& a : tables.axes) header += "," + csv_text(a);
  return header + (with_step ? ",step" : "") + ",metric,value,source\n";
}

// The job's columns, axes included, each followed by a comma.
std::string csv_job(const TidyJob& job) {
  std::string out = csv_text(job.run) + "," + std::to_string(job.index) + "," + job.id + "," + std::to_string(job.seed) + "," +
                    std::to_string(job.point) + "," + job.status + ",";
  for (const auto& cell : job.axes) {
    if (cell.kind == AxisCell::Kind::Number) out += csv_number(cell.number);
    if (cell.kind == AxisCell::Kind::Text) out += csv_text(cell.text);
    out += ",";
  }
  return out;
}

nlohmann::ordered_json json_job(const TidyTables& tables, const TidyJob& job) {
  nlohmann::ordered_json row;
  row["run"] = job.run;
  row["job"] = job.index;
  row["job_id"] = job.id;
  row["seed"] = job.seed;
  row["point"] = job.point;
  row["status"] = job.status;
  for (std::size_t a = 0; a < tables.axes.size(); ++a) {
    const AxisCell& cell = job.axes[a];
    if (cell.kind == AxisCell::Kind::Number) {
      row[tables.axes[a]] = cell.number;
    } else if (cell.kind == AxisCell::Kind::Text) {
      row[tables.axes[a]] = cell.text;
    } else {
      row[tables.axes[a]] = nullptr;
    }
  }
  return row;
}

nlohmann::ordered_json json_value(double value) { return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(); }

void write_csv(const TidyTables& tables, const fs::path& metrics_file, const fs::path& final_file) {
  std::vector<std::string> job_text;
  for (const auto& job : tables.jobs) job_text.push_back(csv_job(job));
  std::ostringstream metrics;
  metrics << csv_header(tables, true);
  for (const auto& row : tables.metrics) {
    metrics << job_text[row.job] << row.step << "," << csv_text(*row.metric) << "," << csv_number(row.value) << ","
            << csv_text(*row.source) << "\n";
  }
  write_file_atomically(metrics_file, metrics.str());
  std::ostringstream finals;
  finals << csv_header(tables, false);
  for (const auto& row : tables.finals) {
    finals << job_text[row.job] << csv_text(*row.metric) << "," << csv_number(row.value) << "," << csv_text(*row.source) << "\n";
  }
  write_file_atomically(final_file, finals.str());
}

void write_jsonl(const TidyTables& tables, const fs::path& metrics_file, const fs::path& final_file) {
  std::vector<nlohmann::ordered_json> job_rows;
  for (const auto& job : tables.jobs) job_rows.push_back(json_job(tables, job));
  std::ostringstream metrics;
  for (const auto& row : tables.metrics) {
    nlohmann::ordered_json line = job_rows[row.job];
    line["step"] = row.step;
    line["metric"] = *row.metric;
    line["value"] = json_value(row.value);
    line["source"] = *row.source;
    metrics << line.dump() << "\n";
  }
  write_file_atomically(metrics_file, metrics.str());
  std::ostringstream finals;
  for (const auto& row : tables.finals) {
    nlohmann::ordered_json line = job_rows[row.job];
    line["metric"] = *row.metric;
    line["value"] = json_value(row.value);
    line["source"] = *row.source;
    finals << line.dump() << "\n";
  }
  write_file_atomically(final_file, finals.str());
}

}  // namespace

std::vector<fs::path> write_tidy_tables(const TidyTables& tables, const fs::path& dir, TidyFormat format) {
  std::vector<std::string> fixed = tidy_job_columns();
  fixed.insert(fixed.end(), {"step", "metric", "value", "source"});
  for (const auto& axis : tables.axes) {
    if (std::find(fixed.begin(), fixed.end(), axis) != fixed.end()) {
      throw Error("the sweep axis '" + axis + "' has the name of one of the export's own columns (" + fmt::format("{}", fmt::join(fixed, ", ")) +
                  "); rename the variant axis in the pipeline's [sweep]");
    }
  }
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw Error(dir.string() + ": cannot create it: " + error.message());
  switch (format) {
    case TidyFormat::Csv:
      write_csv(tables, dir / "metrics.csv", dir / "final.csv");
      return {dir / "metrics.csv", dir / "final.csv"};
    case TidyFormat::Jsonl:
      write_jsonl(tables, dir / "metrics.jsonl", dir / "final.jsonl");
      return {dir / "metrics.jsonl", dir / "final.jsonl"};
    case TidyFormat::Sqlite:
      write_tidy_sqlite(tables, dir / "featurelab.sqlite");
      return {dir / "featurelab.sqlite"};
  }
  return {};
}

}  // namespace featurelab
