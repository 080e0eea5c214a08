#include <featurelab/core/tidy_tables.hpp>

#include "results/run_records.hpp"

#include <featurelab/error.hpp>

#include <toml++/toml.h>

#include <algorithm>
#include <fnmatch.h>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace featurelab {

AxisCell axis_cell(const std::string& toml_text) {
  AxisCell cell;
  cell.kind = AxisCell::Kind::Text;
  cell.text = toml_text;
  try {
    const toml::table parsed = toml::parse("v = " + toml_text);
    const toml::node* node = parsed.get("v");
    if (const auto* s = node->as_string()) {
      cell.text = s->get();
    } else if (const auto* i = node->as_integer()) {
      cell.kind = AxisCell::Kind::Number;
      cell.number = static_cast<double>(i->get());
    } else if (const auto* f = node->as_floating_point()) {
      cell.kind = AxisCell::Kind::Number;
      cell.number = f->get();
    }
  } catch (const toml::parse_error&) {
    // Not TOML (a run.json edited by hand): the text as it stands.
  }
  return cell;
}

namespace {

bool matches(const std::vector<std::string>& patterns, const std::string& metric) {
  if (patterns.empty()) return true;
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](const std::string& p) { return fnmatch(p.c_str(), metric.c_str(), 0) == 0; });
}

}  // namespace

TidyTables read_tidy_tables(const std::vector<fs::path>& runs, const std::vector<std::string>& metric_patterns) {
  TidyTables tables;
  std::vector<std::pair<TidyJob, JobRecord>> loaded;
  std::vector<std::vector<std::pair<std::string, std::string>>> assignments;
  std::vector<JobRecord> damaged;  // finished jobs whose metrics.jsonl changed since: refused, never a shorter table
  for (const auto& run_dir : runs) {
    const StoredRun run = read_run_record(run_dir);
    for (const auto& axis : run.axes) {
      if (std::find(tables.axes.begin(), tables.axes.end(), axis.key) == tables.axes.end()) tables.axes.push_back(axis.key);
    }
    for (const auto& spec : run.jobs) {
      TidyJob job;
      job.run = run_dir.string();
      job.index = spec.index;
      job.id = spec.id;
      job.dir = spec.dir;
      job.seed = spec.seed;
      job.point = spec.point;
      JobRecord record = load_job(run_dir / "jobs" / spec.dir, spec);
      if (record.damaged) damaged.push_back(record);
      job.status = to_string(record.status);
      assignments.push_back(spec.assignments);
      loaded.emplace_back(std::move(job), std::move(record));
    }
  }
  refuse_damaged_jobs(damaged);
  // Every metric name once, each pattern checked against all of them.
  std::set<std::string> recorded;
  for (const auto& [job, record] : loaded) {
    for (const auto& [name, history] : record.history) recorded.insert(name);
    for (const auto& [name, value] : record.final_values) recorded.insert(name);
  }
  for (const auto& pattern : metric_patterns) {
    if (std::none_of(recorded.begin(), recorded.end(), [&](const std::string& m) { return fnmatch(pattern.c_str(), m.c_str(), 0) == 0; })) {
      std::string known;
      for (const auto& m : recorded) known += (known.empty() ? "" : ", ") + m;
      throw Error("--metric '" + pattern + "' matches no metric of " + std::to_string(runs.size()) + " run(s); recorded: " +
                  (known.empty() ? "none" : known));
    }
  }
  for (const auto& m : recorded) {
    if (matches(metric_patterns, m)) tables.metric_names.push_back(m);
  }
  std::map<std::string, const std::string*> name_of;
  for (const auto& m : tables.metric_names) name_of[m] = &m;
  for (std::size_t j = 0; j < loaded.size(); ++j) {
    auto& [job, record] = loaded[j];
    job.axes.resize(tables.axes.size());
    for (const auto& [key, value] : assignments[j]) {
      const auto at = std::find(tables.axes.begin(), tables.axes.end(), key) - tables.axes.begin();
      job.axes[static_cast<std::size_t>(at)] = axis_cell(value);
    }
    const std::size_t index = tables.jobs.size();
    for (const auto& [name, history] : record.history) {
      const auto found = name_of.find(name);
      if (found == name_of.end()) continue;
      for (const auto& [step, value] : history) tables.metrics.push_back({index, step, found->second, value});
    }
    // Final values of finished jobs only, as summary.csv: an unfinished job's last step is not its last.
    if (record.ok()) {
      for (const auto& [name, value] : record.final_values) {
        const auto found = name_of.find(name);
        if (found != name_of.end()) tables.finals.push_back({index, found->second, value});
      }
    }
    tables.jobs.push_back(std::move(job));
  }
  return tables;
}

}  // namespace featurelab
