#include <featurelab/core/tidy_tables.hpp>

#include "results/config_keys.hpp"
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

// Of several runs, the settings whose values differ between them (each run's config.toml) and no sweep sets: per run,
// its value of each such key, in the key's column (the columns appended to `axes`). The assertions are not settings
// and the [sweep] table is in the axes already. A run without config.toml (written before it was kept) adds none.
std::vector<std::map<std::string, std::string>> differing_settings(const std::vector<fs::path>& runs, std::vector<std::string>& axes) {
  std::vector<std::map<std::string, std::string>> settings;
  if (runs.size() < 2) return settings;
  for (const auto& run : runs) {
    if (!fs::exists(run / "config.toml")) return {};
    settings.push_back(configuration_keys(run / "config.toml"));
  }
  std::set<std::string> keys;
  for (const auto& run : settings) {
    for (const auto& [key, value] : run) keys.insert(key);
  }
  const auto excluded = [&](const std::string& key) {
    return key.rfind("assert.", 0) == 0 || key.rfind("sweep.", 0) == 0 ||
           std::find(axes.begin(), axes.end(), key) != axes.end();
  };
  for (const auto& key : keys) {
    if (excluded(key)) continue;
    const auto first = settings.front().find(key);
    const bool same = std::all_of(settings.begin(), settings.end(), [&](const auto& run) {
      const auto found = run.find(key);
      return found != run.end() && first != settings.front().end() && found->second == first->second;
    });
    if (!same) axes.push_back(key);
  }
  return settings;
}

// The job's evaluations (featurelab eval: jobs/X/eval/NAME, each written as a job's directory), by name; a damaged
// one's error says to measure it again.
std::vector<std::pair<std::string, JobRecord>> load_evaluations(const fs::path& run_dir, const JobSpec& spec) {
  std::vector<std::pair<std::string, JobRecord>> found;
  const fs::path dir = run_dir / "jobs" / spec.dir / "eval";
  std::error_code error;
  if (!fs::is_directory(fs::symlink_status(dir, error))) return found;
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (fs::is_directory(entry.symlink_status(error))) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    const std::string remedy = "measure it again with featurelab eval " + run_dir.string() + " --name " + name + " --indices " +
                               std::to_string(spec.index) + " (and the --probes and --step it was made with)";
    found.emplace_back(name, load_job(dir / name, spec, remedy));
  }
  return found;
}

}  // namespace

TidyTables read_tidy_tables(const std::vector<fs::path>& runs, const std::vector<std::string>& metric_patterns) {
  TidyTables tables;
  std::vector<std::pair<TidyJob, JobRecord>> loaded;
  std::vector<std::vector<std::pair<std::string, JobRecord>>> evaluations;  // per loaded job
  std::vector<std::vector<std::pair<std::string, std::string>>> assignments;
  std::vector<JobRecord> damaged;  // finished jobs whose metrics.jsonl changed since: refused, never a shorter table
  std::vector<std::size_t> run_of;  // per loaded job, its run's index in `runs`
  std::vector<StoredRun> stored;
  for (const auto& run_dir : runs) {
    stored.push_back(read_run_record(run_dir));
    for (const auto& axis : stored.back().axes) {
      if (std::find(tables.axes.begin(), tables.axes.end(), axis.key) == tables.axes.end()) tables.axes.push_back(axis.key);
    }
  }
  const auto settings = differing_settings(runs, tables.axes);
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const fs::path& run_dir = runs[r];
    const StoredRun& run = stored[r];
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
      evaluations.push_back(load_evaluations(run_dir, spec));
      for (const auto& [name, evaluation] : evaluations.back()) {
        if (evaluation.damaged) damaged.push_back(evaluation);
      }
      job.status = to_string(record.status);
      assignments.push_back(spec.assignments);
      run_of.push_back(r);
      loaded.emplace_back(std::move(job), std::move(record));
    }
  }
  refuse_damaged_jobs(damaged);
  // Every metric name once, each pattern checked against all of them.
  std::set<std::string> recorded;
  std::set<std::string> sources;
  const auto note = [&](const JobRecord& record) {
    for (const auto& [name, history] : record.history) recorded.insert(name);
    for (const auto& [name, value] : record.final_values) recorded.insert(name);
  };
  for (std::size_t j = 0; j < loaded.size(); ++j) {
    note(loaded[j].second);
    for (const auto& [name, evaluation] : evaluations[j]) {
      note(evaluation);
      sources.insert("eval/" + name);
    }
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
  tables.sources.push_back("run");
  tables.sources.insert(tables.sources.end(), sources.begin(), sources.end());
  std::map<std::string, const std::string*> source_of;
  for (const auto& s : tables.sources) source_of[s] = &s;
  for (std::size_t j = 0; j < loaded.size(); ++j) {
    auto& [job, record] = loaded[j];
    job.axes.resize(tables.axes.size());
    // Each column from the job's own run's configuration (of several runs: a run that does not sweep another's
    // axis ran it at its configured value), then its sweep point's values over it.
    for (std::size_t a = 0; a < tables.axes.size() && !settings.empty(); ++a) {
      const auto& own = settings[run_of[j]];
      if (const auto found = own.find(tables.axes[a]); found != own.end()) job.axes[a] = axis_cell(found->second);
    }
    for (const auto& [key, value] : assignments[j]) {
      const auto at = std::find(tables.axes.begin(), tables.axes.end(), key) - tables.axes.begin();
      job.axes[static_cast<std::size_t>(at)] = axis_cell(value);
    }
    const std::size_t index = tables.jobs.size();
    const auto add_rows = [&](const JobRecord& from, const std::string* source) {
      for (const auto& [name, history] : from.history) {
        const auto found = name_of.find(name);
        if (found == name_of.end()) continue;
        for (const auto& [step, value] : history) tables.metrics.push_back({index, step, found->second, value, source});
      }
      // Final values of finished jobs only, as summary.csv: an unfinished job's last step is not its last.
      if (from.ok()) {
        for (const auto& [name, value] : from.final_values) {
          const auto found = name_of.find(name);
          if (found != name_of.end()) tables.finals.push_back({index, found->second, value, source});
        }
      }
    };
    add_rows(record, &tables.sources.front());
    for (const auto& [name, evaluation] : evaluations[j]) add_rows(evaluation, source_of.at("eval/" + name));
    tables.jobs.push_back(std::move(job));
  }
  return tables;
}

}  // namespace featurelab
