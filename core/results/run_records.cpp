// Job results from disk; summary.csv.
#include "results/run_records.hpp"

#include "kernel/job/metrics_writer.hpp"
#include "kernel/io/atomic_file.hpp"
#include "kernel/io/sha256.hpp"
#include "kernel/text/names.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

namespace featurelab {

namespace fs = std::filesystem;

StoredRun read_run_record(const fs::path& run_dir) {
  const fs::path file = run_dir / "run.json";
  std::ifstream in(file);
  if (!in) throw Error(run_dir.string() + ": not a featurelab run directory (no run.json)");
  StoredRun run;
  try {
    const nlohmann::json r = nlohmann::json::parse(in);
    if (r.value("format", 0) != kRunFormat) {
      throw Error("run directory format " + std::to_string(r.value("format", 0)) + ", this featurelab reads " +
                  std::to_string(kRunFormat));
    }
    run.version = r.at("featurelab_version").get<std::string>();
    run.name = r.value("name", "");
    if (const std::string save = r.value("save_params", ""); !save.empty()) run.save_params = parse_save_params(save, file.string());
    for (const auto& a : r.at("axes")) run.axes.push_back({a.at("key"), a.at("values"), {}, {}, {}});
    for (const auto& j : r.at("jobs")) {
      JobSpec spec;
      spec.index = j.at("index");
      spec.id = j.at("id");
      spec.dir = j.at("dir");
      spec.seed = j.at("seed");
      spec.point = j.at("point");
      spec.assignments = j.at("assignments").get<std::vector<std::pair<std::string, std::string>>>();
      // Every reader joins RUN/jobs/<dir>: a "dir" of "../x" or "/tmp/x" would send the job's files elsewhere.
      const bool hex_id = spec.id.size() == 16 && spec.id.find_first_not_of("0123456789abcdef") == std::string::npos;
      if (spec.index != run.jobs.size() || !hex_id || spec.dir != job_directory_name(spec.index, spec.id)) {
        throw Error(fmt::format("job {} of the list: index {}, id \"{}\", dir \"{}\" is not a job this featurelab "
                                "planned (its directory is jobs/<index as 4 digits>-<the id's first 8 hex digits>); "
                                "the file was edited or damaged",
                                run.jobs.size(), spec.index, spec.id, spec.dir));
      }
      run.jobs.push_back(spec);
    }
  } catch (const Error& e) {
    throw Error(file.string() + ": " + e.what());
  } catch (const std::exception& e) {
    throw Error(file.string() + ": unreadable (" + e.what() + ")");
  }
  return run;
}

namespace {

// A line of a damaged file as it may be shown: at most 60 bytes, control characters escaped.
std::string shown_line(const std::string& line) {
  std::string shown = shown_with_escapes(line.substr(0, 60));
  return line.size() > 60 ? shown + "..." : shown;
}

// The damage a finished job's metrics.jsonl shows against what its summary.json recorded, "" for none.
std::string metrics_damage(const std::string& bytes, Index lines, bool parsed_whole, const nlohmann::json& summary,
                           const JobRecord& r) {
  if (!bytes.empty() && bytes.back() != '\n') return fmt::format("its last line (line {}) is cut short", lines);
  if (const auto record = summary.find("metrics_file"); record != summary.end() && record->is_object()) {
    const Index recorded_lines = record->value("lines", Index(-1));
    if (recorded_lines != lines) {
      return fmt::format("it holds {} lines where the job wrote {} (summary.json's \"metrics_file\")", lines, recorded_lines);
    }
    Sha256Stream digest;
    digest.update(bytes);
    if (const std::string sha = digest.hex(); sha != record->value("sha256", "")) {
      return fmt::format("its sha256 is {}, the job wrote {} (summary.json's \"metrics_file\"): a line was changed",
                         sha, record->value("sha256", ""));
    }
    return "";
  }
  // A summary written before the record: the last value of each metric must be its recorded final.
  const auto finals = summary.find("final");
  if (!parsed_whole || finals == summary.end() || !finals->is_object()) return "";
  for (const auto& [metric, value] : finals->items()) {
    const auto found = r.history.find(metric);
    const double expected = value.is_number() ? value.get<double>() : std::nan("");
    if (found == r.history.end()) return "it holds no value of '" + metric + "', which summary.json's \"final\" records";
    const double last = found->second.back().second;
    if (!(last == expected || (std::isnan(last) && std::isnan(expected)))) {
      return fmt::format("its last value of '{}' is {} at step {}, summary.json's \"final\" records {}", metric,
                         json_number(last), found->second.back().first, json_number(expected));
    }
  }
  return "";
}

}  // namespace

JobRecord load_job(const fs::path& dir, const JobSpec& spec, const std::string& remedy) {
  JobRecord r;
  r.spec = spec;
  if (std::string problem = job_directory_problem(dir); !problem.empty()) {
    r.status = JobState::failed;
    r.error = std::move(problem);
    return r;
  }
  nlohmann::json summary_json = nlohmann::json::object();
  std::ifstream summary(dir / "summary.json");
  if (summary) {
    try {
      summary_json = nlohmann::json::parse(summary);
      const std::string recorded = summary_json.value("status", "");
      r.status = recorded_state(recorded).value_or(JobState::failed);
      r.error = summary_json.value("error", "");
      if (r.status == JobState::pruned) r.error = summary_json.value("pruned", "");  // why, not an error
      if (!recorded_state(recorded)) {
        r.error = (dir / "summary.json").string() + " records no job state (ok, failed or interrupted) but '" + recorded + "'";
      }
      r.seconds = summary_json.value("seconds", 0.0);
    } catch (const std::exception& e) {
      r.status = JobState::failed;
      r.error = (dir / "summary.json").string() + " is unreadable: " + e.what();
    }
  }
  if (r.ok() && !fs::exists(dir / "done")) {
    r.status = JobState::failed;
    r.error = "no done marker";
  }
  const fs::path file = dir / "metrics.jsonl";
  std::ifstream metrics(file, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(metrics), std::istreambuf_iterator<char>()};
  Index lines = 0;
  std::string damage;
  bool parsed_whole = true;
  for (std::size_t begin = 0; begin < bytes.size();) {
    const std::size_t end = std::min(bytes.find('\n', begin), bytes.size());
    const std::string_view line(bytes.data() + begin, end - begin);
    begin = end + 1;
    ++lines;
    try {
      const auto j = nlohmann::json::parse(line);
      const double value = j.at("value").is_null() ? std::nan("") : j.at("value").get<double>();
      r.history[j.at("metric").get<std::string>()].emplace_back(j.at("step").get<Index>(), value);
    } catch (const std::exception&) {
      // In an unfinished job, a line cut by a kill: everything before it stands. In a finished one, damage.
      parsed_whole = false;
      damage = fmt::format("line {} is not a whole record: {}", lines, shown_line(std::string(line)));
      break;
    }
  }
  if (r.ok()) {
    if (damage.empty()) damage = metrics_damage(bytes, lines, parsed_whole, summary_json, r);
    if (!damage.empty()) {
      r.status = JobState::failed;
      r.damaged = true;
      r.error = fmt::format("{}: damaged after the job finished: {}. None of its values is used; {}", file.string(), damage,
                            !remedy.empty() ? remedy
                                            : fmt::format("to run the job again, remove {} and resume the run (featurelab run "
                                                          "PIPELINE --out RUN --resume, or featurelab job RUN --index {})",
                                                          (dir / "done").string(), spec.index));
      r.history.clear();
      return r;
    }
  }
  for (const auto& [metric, points] : r.history) r.final_values[metric] = points.back().second;
  return r;
}

void refuse_damaged_jobs(const std::vector<JobRecord>& jobs) {
  std::string listed;
  std::size_t count = 0;
  for (const auto& job : jobs) {
    if (!job.damaged) continue;
    if (++count <= 3) listed += "\n  " + job.error;
  }
  if (count == 0) return;
  if (count > 3) listed += fmt::format("\n  and {} more", count - 3);
  throw Error(fmt::format("{} finished job(s) hold a damaged metrics.jsonl; their results are not read:{}", count, listed));
}

MeanSd mean_and_sd(const std::vector<double>& values) {
  MeanSd m;
  const double n = static_cast<double>(values.size());
  for (double v : values) m.mean += v;
  m.mean /= n;
  double var = 0;
  for (double v : values) var += (v - m.mean) * (v - m.mean);
  m.sd = values.size() > 1 ? std::sqrt(var / (n - 1)) : 0.0;
  return m;
}

std::vector<SummaryRow> summarize(const std::vector<JobRecord>& jobs) {
  std::map<std::size_t, std::map<std::string, std::vector<double>>> by_point;
  std::map<std::size_t, const JobRecord*> example;
  for (const auto& job : jobs) {
    example.emplace(job.spec.point, &job);
    if (!job.ok()) continue;
    for (const auto& [metric, value] : job.final_values) by_point[job.spec.point][metric].push_back(value);
  }
  std::vector<SummaryRow> rows;
  for (const auto& [point, metrics] : by_point) {
    for (const auto& [metric, values] : metrics) {
      SummaryRow row;
      row.point = point;
      row.label = example.at(point)->spec.point_label();
      row.assignments = example.at(point)->spec.assignments;
      row.metric = metric;
      row.n = values.size();
      const MeanSd m = mean_and_sd(values);
      row.mean = m.mean;
      row.std = m.sd;
      row.min = *std::min_element(values.begin(), values.end());
      row.max = *std::max_element(values.begin(), values.end());
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::string csv_field(std::string text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

void write_summary_csv(const fs::path& file, const std::vector<SweepAxis>& axes, const std::vector<JobRecord>& jobs) {
  std::ostringstream out;
  out << "point";
  for (const auto& axis : axes) out << "," << csv_field(axis.key);
  out << ",metric,n,mean,std,min,max\n";
  for (const auto& row : summarize(jobs)) {
    out << row.point;
    for (const auto& axis : axes) {
      std::string value;
      for (const auto& [k, v] : row.assignments) {
        if (k == axis.key) value = v;
      }
      out << "," << csv_field(value);
    }
    out << "," << csv_field(row.metric) << "," << row.n << "," << json_number(row.mean) << "," << json_number(row.std)
        << "," << json_number(row.min) << "," << json_number(row.max) << "\n";
  }
  write_file_atomically(file, out.str());
}

}  // namespace featurelab
