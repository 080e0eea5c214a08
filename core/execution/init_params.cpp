#include "execution/init_params.hpp"

#include "results/run_records.hpp"

#include <featurelab/core/tidy_tables.hpp>
#include <featurelab/error.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

// "arm=digits lr=0.1" (or comma-separated) → its pairs.
std::vector<std::pair<std::string, std::string>> point_pairs(const std::string& text) {
  std::string spaced = text;
  std::replace(spaced.begin(), spaced.end(), ',', ' ');
  std::istringstream in(spaced);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::string piece; in >> piece;) {
    const auto eq = piece.find('=');
    if (eq == std::string::npos || eq == 0) throw Error("point = \"" + text + "\": expected key=value, got '" + piece + "'");
    pairs.emplace_back(piece.substr(0, eq), piece.substr(eq + 1));
  }
  return pairs;
}

// Whether a sweep value (its TOML text, as run.json keeps it) is the one written: the same text, string or number.
bool same_value(const std::string& toml_text, const std::string& written) {
  if (toml_text == written) return true;
  const AxisCell cell = axis_cell(toml_text);
  if (cell.kind == AxisCell::Kind::Text) return cell.text == written;
  if (cell.kind == AxisCell::Kind::Number) {
    char* end = nullptr;
    const double number = std::strtod(written.c_str(), &end);
    return end != written.c_str() && *end == '\0' && number == cell.number;
  }
  return false;
}

bool at_point(const JobSpec& job, const std::vector<std::pair<std::string, std::string>>& pairs) {
  return std::all_of(pairs.begin(), pairs.end(), [&](const auto& pair) {
    return std::any_of(job.assignments.begin(), job.assignments.end(),
                       [&](const auto& a) { return a.first == pair.first && same_value(a.second, pair.second); });
  });
}

std::string points_text(const std::vector<const JobSpec*>& jobs) {
  std::set<std::string> labels;
  for (const JobSpec* j : jobs) labels.insert(j->point_label());
  std::string text;
  for (const auto& l : labels) text += (text.empty() ? "\"" : ", \"") + l + "\"";
  return text;
}

// The job of `seed` at `point` in `run`.
std::pair<fs::path, std::string> job_of_run(const InitSource& source, std::int64_t seed) {
  const StoredRun run = read_run_record(source.run);
  std::vector<const JobSpec*> of_seed;
  std::set<std::int64_t> seeds;
  for (const auto& job : run.jobs) {
    seeds.insert(job.seed);
    if (job.seed == seed) of_seed.push_back(&job);
  }
  if (of_seed.empty()) {
    std::string listed;
    for (const auto s : seeds) listed += (listed.empty() ? "" : ", ") + std::to_string(s);
    throw Error(source.run.string() + " has no job of seed " + std::to_string(seed) + " (its seeds: " + listed +
                "); run it with this pipeline's seeds, or name one job: { job = \"RUN/jobs/JOB\" }");
  }
  const auto pairs = point_pairs(source.point);
  std::vector<const JobSpec*> chosen;
  for (const JobSpec* job : of_seed) {
    if (at_point(*job, pairs)) chosen.push_back(job);
  }
  if (chosen.size() != 1) {
    const std::string which = source.point.empty() ? std::to_string(chosen.size()) + " jobs of seed " + std::to_string(seed) + ", one per sweep point"
                              : std::to_string(chosen.size()) + " jobs of seed " + std::to_string(seed) + " at point \"" + source.point + "\"";
    throw Error(source.run.string() + " has " + which + "; name one point: { run = \"RUN\", point = \"key=value\" } (its points: " +
                points_text(of_seed) + ")");
  }
  return {source.run / "jobs" / chosen.front()->dir, chosen.front()->id};
}

}  // namespace

JobOptions::InitParams resolve_init_params(const InitSource& source, std::int64_t seed) {
  JobOptions::InitParams init;
  if (!source.run.empty()) {
    std::tie(init.job_dir, init.job_id) = job_of_run(source, seed);
    init.seed = seed;
  } else {
    init.job_dir = source.job;
    const StoredRun run = read_run_record(source.job.parent_path().parent_path());
    const auto found = std::find_if(run.jobs.begin(), run.jobs.end(), [&](const JobSpec& j) { return j.dir == source.job.filename(); });
    if (found == run.jobs.end()) throw Error(source.job.string() + ": its run's run.json has no such job");
    init.job_id = found->id;
    init.seed = found->seed;
  }
  if (std::string problem = job_directory_problem(init.job_dir); !problem.empty()) throw Error(init.job_dir.string() + ": " + problem);
  if (!fs::exists(init.job_dir / "done")) {
    throw Error(init.job_dir.string() + " has not finished (no done marker); finish it first (featurelab run PIPELINE --out RUN --resume)");
  }
  const auto files = recorded_saved_params(init.job_dir);
  if (files.empty()) {
    throw Error(init.job_dir.string() + " saved no parameters; run its pipeline with --save-params final (or every:N), or give it experiment.save_params");
  }
  const std::set<Index> steps = saved_steps(files);
  const Index step = source.step.value_or(*steps.rbegin());
  if (steps.count(step) == 0) {
    throw Error(init.job_dir.string() + " saved no parameters at step " + std::to_string(step) + " (saved: " + saved_steps_text(steps) + ")");
  }
  init.params.dir = init.job_dir / "params" / saved_step_dir(step);
  init.params.step = step;
  const std::string prefix = saved_step_dir(step) + "/";
  for (const auto& [file, hash] : files) {
    if (file.rfind(prefix, 0) == 0) init.params.hashes[file] = hash;
  }
  return init;
}

}  // namespace featurelab
