// Sweep expansion: each point is the pipeline, read once, with the point's values applied as
// overrides, so every message keeps its file and line, and swapping a component's `use`
// validates the point's parameters against the new component's schema.
#include "kernel/job/plan.hpp"

#include "kernel/job/search_space.hpp"

#include "kernel/config/validate.hpp"
#include "kernel/job/memory_budget.hpp"
#include <featurelab/core/catalog.hpp>
#include "kernel/text/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace featurelab {

std::string toml_text(const toml::node& node) {
  std::ostringstream out;
  if (const auto* s = node.as_string()) {
    std::string quoted = "\"";
    for (char c : s->get()) {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    return quoted + "\"";
  }
  if (const auto* a = node.as_array()) {
    out << toml::toml_formatter(*a);
    return out.str();
  }
  if (const auto* f = node.as_floating_point()) {
    // The shortest text that reads back as the same double, still a float ("0.15", "1.0").
    std::string text = fmt::format("{}", f->get());
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    return text;
  }
  node.visit([&out](const auto& v) {
    if constexpr (!toml::is_table<decltype(v)> && !toml::is_array<decltype(v)>) out << v;
  });
  return out.str();
}

namespace {

// A variant's keys as "dotted.key=value" overrides, with where each value is written; nested
// tables (unquoted dotted keys) flatten.
void variant_overrides(const toml::table& table, const std::string& prefix, std::vector<std::string>& out,
                       std::vector<std::string>& locations, std::vector<Diagnostic>& errors) {
  for (auto&& [key, node] : table) {
    const std::string dotted = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
    if (prefix.empty() && key.str() == "name") continue;
    if (const auto* nested = node.as_table()) {
      variant_overrides(*nested, dotted, out, locations, errors);
    } else {
      out.push_back(dotted + "=" + toml_text(node));
      locations.push_back(where(node));
    }
  }
}

SweepAxis variant_axis(const std::string& name, const toml::array& values, std::vector<Diagnostic>& errors) {
  SweepAxis axis;
  axis.key = name;
  // An axis is a column of summary.csv and of the exported tables beside these: the same name would make a table
  // ambiguous. SQLite's column names ignore case, so "Step" is "step" there.
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* column : {"run", "point", "metric", "n", "mean", "std", "min", "max", "seed", "job", "job_id", "status",
                             "value"}) {
    if (lower == column) {
      errors.push_back({where(values), "sweep." + name + ": '" + name + "' is a column of summary.csv or of the exported "
                                       "tables (whatever its case); name the axis otherwise (e.g. sweep." + name + "_value)"});
    }
  }
  if (lower == "step") {
    errors.push_back({where(values), "sweep." + name + ": 'step' selects a training step in [[assert]] expressions "
                                     "(metric[step=100]) and is a column of the exported tables (whatever its case); "
                                     "name the axis otherwise (e.g. sweep.steps)"});
  }
  for (const auto& v : values) {
    const auto* table = v.as_table();
    const toml::node* label = table ? table->get("name") : nullptr;
    if (!table || !label || !label->is_string()) {
      errors.push_back({where(v), "sweep." + name + ": every variant is a table with a name, e.g. { name = \"binary\", "
                                  "\"loss.use\" = \"logistic\" }"});
      continue;
    }
    std::vector<std::string> overrides;
    std::vector<std::string> locations;
    variant_overrides(*table, "", overrides, locations, errors);
    const std::string text = toml_text(*label);
    if (has_control_character(label->as_string()->get())) {
      errors.push_back({where(*label), "sweep." + name + ": the variant name " + shown_with_escapes(label->as_string()->get()) +
                                           " holds a control character: a name reaches plot and Slurm scripts, where a "
                                           "newline would start a command; write it on one line of printable characters"});
    }
    for (const auto& prior : axis.values) {
      if (prior == text) errors.push_back({where(v), "sweep." + name + ": two variants are named " + text});
    }
    axis.values.push_back(text);
    axis.overrides.push_back(std::move(overrides));
    axis.locations.push_back(std::move(locations));
  }
  return axis;
}

void flatten(const toml::table& table, const std::string& prefix, std::vector<SweepAxis>& axes,
             std::vector<Diagnostic>& errors) {
  for (auto&& [key, node] : table) {
    const std::string dotted = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
    if (const auto* nested = node.as_table()) {
      flatten(*nested, dotted, axes, errors);
      continue;
    }
    const auto* values = node.as_array();
    if (!values || values->empty()) {
      errors.push_back({where(node), "sweep." + dotted + ": expected a non-empty list of values, e.g. [1, 2]"});
      continue;
    }
    if (values->front().is_table()) {
      axes.push_back(variant_axis(dotted, *values, errors));
      axes.back().where = where(node);
      continue;
    }
    SweepAxis axis;
    axis.key = dotted;
    axis.where = where(node);
    for (const auto& v : *values) {
      if (v.is_table()) {
        errors.push_back({where(v), "sweep." + dotted + ": mixes plain values and variant tables; use one kind per key"});
        continue;
      }
      axis.values.push_back(toml_text(v));
      axis.overrides.push_back({dotted + "=" + axis.values.back()});
      axis.locations.push_back({where(v)});
    }
    axes.push_back(std::move(axis));
  }
}

// Two axes of one key (a quoted "model.width" and a nested model.width, or one from a base file)
// would make every point twice, with the same job ids and the later axis' value winning; a value
// listed twice in an axis makes the same point twice. Both are refused where written.
void check_distinct_axes(const std::vector<SweepAxis>& axes, std::vector<Diagnostic>& errors) {
  std::map<std::string, const SweepAxis*> seen;
  for (const auto& axis : axes) {
    if (auto [it, fresh] = seen.emplace(axis.key, &axis); !fresh) {
      const std::string& there = it->second->where;
      errors.push_back({axis.where, "sweep." + axis.key + ": this axis is written twice" +
                                        (there.empty() ? std::string() : " (also at " + there + ")") +
                                        ", as a quoted key and as nested tables; write it once"});
      continue;
    }
    std::set<std::string> listed;
    for (std::size_t v = 0; v < axis.values.size() && !axis.zipped; ++v) {  // a search draws no point twice itself
      // Plain values only: a variant axis' values are its names, refused twice by variant_axis.
      const bool plain = axis.overrides[v] == std::vector<std::string>{axis.key + "=" + axis.values[v]};
      if (!plain || listed.insert(axis.values[v]).second) continue;
      const std::string at = axis.locations[v].empty() ? axis.where : axis.locations[v].front();
      errors.push_back({at, "sweep." + axis.key + ": the value " + axis.values[v] +
                                " is listed twice; each value is one sweep point (more runs of a point: more seeds)"});
    }
  }
}

// The run's size, from the axes' lengths and the seed list, before any point is made: a sweep of
// 10^7 points would fill memory while being planned.
std::size_t seed_count(const toml::table& merged) {
  const toml::node* seeds = merged.at_path("experiment.seeds").node();
  if (const auto* list = seeds ? seeds->as_array() : nullptr) return std::max<std::size_t>(list->size(), 1);
  return 1;
}

// Located at the [sweep] table, or at the seeds without one.
std::string run_size_location(const toml::table& merged) {
  const toml::node* sweep = merged.get("sweep");
  const toml::node* seeds = merged.at_path("experiment.seeds").node();
  return sweep ? where(*sweep) : seeds ? where(*seeds) : std::string();
}

// jobs: the count before expansion (each point with the file's seeds), or, with per_point_seeds,
// the exact count of a sweep whose points set their own seeds.
Diagnostic too_many_jobs(const std::string& at, const toml::table& merged, const std::vector<SweepAxis>& axes,
                         double jobs, bool per_point_seeds) {
  std::string sizes;
  const SweepAxis* largest = nullptr;
  for (const auto& axis : axes) {
    sizes += (sizes.empty() ? "" : " × ") + std::to_string(axis.values.size());
    if (!largest || axis.values.size() > largest->values.size()) largest = &axis;
  }
  const std::string seeds_text = std::to_string(seed_count(merged)) + " seed(s)";
  const std::string made = axes.empty() ? "experiment.seeds: " + seeds_text
                           : per_point_seeds ? "[sweep]: " + sizes + " values, with each point's seeds,"
                                             : "[sweep]: " + sizes + " values × " + seeds_text;
  const std::string count = jobs < 1e15 ? fmt::format("{:.0f}", jobs) : fmt::format("{:.3g}", jobs);
  const std::string split = largest ? "sweep fewer values (sweep." + largest->key + " has " +
                                          std::to_string(largest->values.size()) +
                                          ") or seeds, or split the sweep into runs of a part each (--set 'sweep." +
                                          largest->key + "=[...]' with an --out per part)"
                                    : "use fewer seeds, or split them into runs of a part each (--set "
                                      "'experiment.seeds=[...]' with an --out per part)";
  return {at, made + " make " + count + " jobs, more than the " + std::to_string(kMaxJobsPerRun) +
                  " one run may plan; " + split};
}

void check_run_size(const toml::table& merged, const std::vector<SweepAxis>& axes) {
  double jobs = static_cast<double>(seed_count(merged));
  bool searched = false;  // the zipped axes count once: their points are the search's budget
  for (const auto& axis : axes) {
    if (axis.zipped && std::exchange(searched, true)) continue;
    jobs *= static_cast<double>(axis.values.size());
  }
  if (jobs > static_cast<double>(kMaxJobsPerRun)) {
    throw ConfigError({too_many_jobs(run_size_location(merged), merged, axes, jobs, false)});
  }
}

// The samples' memory, refused at planning rather than when every job starts, for distributions
// that declare their dimension (distribution.hpp); job.cpp checks the others when they start.
void check_data_memory(const Pipeline& p, const Catalog& catalog) {
  if (!p.data.ref.component) return;
  double dim = -1;
  try {
    dim = catalog.data_dimension(p.data.ref, p.data.params);
  } catch (const PluginError&) {
    throw;
  } catch (const Error& e) {
    throw ConfigError({{p.data.where, std::string("data: ") + e.what()}});
  }
  if (dim < 0) return;
  const auto samples = [](Index n) { return n == kAllSamples ? 0.0 : double(n); };  // "all": a finite file
  const std::string problem = dataset_memory_problem(samples(p.train_size), samples(p.test_size), dim);
  if (!problem.empty()) throw ConfigError({{p.data.where, problem}});
}

// A --set of a key the sweep also sets is replaced wherever the sweep sets it. Set by every value of
// an axis (a plain axis always), it would change nothing: refused, naming the key, where the sweep
// sets it and how to run other values. Set by some variants only, it still applies to the others
// (a reduced run of a sweep whose "closed-form" variant sets train.steps = 0): a warning names the
// variants that keep their own value.
void check_swept_overrides(const toml::table& merged, const std::vector<SweepAxis>& axes,
                           const std::vector<std::string>& overrides, std::vector<Diagnostic>& errors,
                           std::vector<std::string>& warnings) {
  const toml::table* sweep = merged["sweep"].as_table();
  for (const auto& assignment : overrides) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = assignment.substr(0, eq);
    const std::string value = assignment.substr(eq + 1);
    for (const auto& axis : axes) {
      std::vector<std::string> setters;  // "\"closed-form4\" (file:line:col)", per value that sets the key
      std::string swept, first_location;
      for (std::size_t v = 0; v < axis.values.size(); ++v) {
        for (std::size_t j = 0; j < axis.overrides[v].size(); ++j) {
          const std::string set = axis.overrides[v][j].substr(0, axis.overrides[v][j].find('='));
          if (key != set && set.rfind(key + ".", 0) != 0 && key.rfind(set + ".", 0) != 0) continue;
          const std::string location = j < axis.locations[v].size() ? axis.locations[v][j] : "";
          if (setters.empty()) {
            swept = set;
            first_location = location;
          }
          setters.push_back(axis.values[v] + (location.empty() ? "" : " (" + location + ")"));
          break;
        }
      }
      if (setters.empty()) continue;
      const bool plain_axis = axis.key == swept;
      if (setters.size() < axis.values.size() && !plain_axis) {
        std::string list;
        for (const auto& s : setters) list += (list.empty() ? "" : ", ") + s;
        warnings.push_back("--set " + key + " applies to the sweep points of " + axis.key + " but " + list +
                           (setters.size() == 1 ? ", which sets " + swept + " itself" : ", which set " + swept + " themselves"));
        continue;
      }
      // A plain axis is the sweep table's key (quoted, or nested tables), located at its list.
      const toml::node* node = !sweep ? nullptr : sweep->contains(swept) ? sweep->get(swept) : sweep->at_path(swept).node();
      const std::string location = plain_axis && node ? where(*node) : first_location;
      const std::string at = location.empty() ? std::string() : " (" + location + ")";
      errors.push_back({"--set " + key, "the [sweep]" + at + " also sets " + swept + ", and each sweep point's value "
                        "replaces this one; " + (plain_axis ? "to run other values, set the sweep's instead: --set '"
                        "sweep." + swept + "=[" + value + "]'" : "edit the [sweep] variants that set it") +
                        ", or drop this --set"});
    }
  }
}

}  // namespace

std::string job_directory_name(std::size_t index, const std::string& id) {
  return fmt::format("{:04d}-{}", index, id.substr(0, 8));
}

std::string job_directory_problem(const std::filesystem::path& dir) {
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(dir, ec);
  if (ec || status.type() == std::filesystem::file_type::not_found) return "";  // not made yet: the run makes it
  if (std::filesystem::is_symlink(status)) {
    const auto target = std::filesystem::read_symlink(dir, ec);
    return fmt::format("its directory {} was replaced by a symbolic link{}; a job runs and is read only in a "
                       "directory of its own (remove the link and run the job again)",
                       dir.string(), ec ? "" : " to " + target.string());
  }
  if (!std::filesystem::is_directory(status)) {
    return fmt::format("{} is not a directory; remove it and run the job again", dir.string());
  }
  return "";
}

std::string JobSpec::point_label() const {
  std::string out;
  for (const auto& [key, value] : assignments) {
    std::string v = value;
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    out += (out.empty() ? "" : " ") + key + "=" + v;
  }
  return out;
}

namespace {

// computed: the pipeline's computed_toml(), rendered once per sweep point rather than per seed
// (rendering it per job made planning quadratic in the seeds: the text holds the seed list).
std::string job_id_of(const std::string& computed, std::int64_t seed) {
  return fmt::format("{:016x}", stable_hash(computed, static_cast<std::uint64_t>(seed)));
}

}  // namespace

std::string job_id(const Pipeline& pipeline, std::int64_t seed) {
  // Neither [experiment] (name, seeds, timeout) nor the assertions change what a job computes:
  // a job keeps its id, and its results on --resume, when seeds are added, the experiment renamed,
  // the timeout raised to rerun the jobs that ran out of time, or an assertion added or edited.
  return job_id_of(pipeline.computed_toml(), seed);
}

RunPlan plan_run(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                 const Catalog& catalog) {
  RunPlan plan;
  plan.file = file;
  plan.overrides = overrides;
  PipelineSource source = load_pipeline(file, overrides);
  plan.text = std::move(source.text);
  std::vector<Diagnostic> errors;
  if (const toml::node* sweep = source.table.get("sweep")) {
    if (const auto* t = sweep->as_table()) {
      flatten(*t, "", plan.axes, errors);
    } else {
      errors.push_back({where(*sweep), "sweep: expected a table [sweep] of key = [values]"});
    }
  }
  if (const toml::node* search = source.table.get("search")) {
    if (const auto* t = search->as_table()) {
      for (auto& axis : plan_search(*t, errors)) plan.axes.push_back(std::move(axis));
    } else {
      errors.push_back({where(*search), "search: expected a table [search] with budget = N and key = { distribution }"});
    }
  }
  check_distinct_axes(plan.axes, errors);
  check_swept_overrides(source.table, plan.axes, overrides, errors, plan.warnings);
  if (!errors.empty()) throw ConfigError(errors);
  check_run_size(source.table, plan.axes);

  // Cartesian product, last axis fastest: each point's coordinates and the overrides they apply. The search's
  // zipped axes are one factor: its drawn points, each with a value of every searched key.
  std::vector<std::vector<std::pair<std::string, std::string>>> points{{}};
  std::vector<std::vector<std::string>> point_overrides{{}};
  std::vector<std::vector<std::string>> point_locations{{}};
  std::vector<const SweepAxis*> search_axes;
  for (const auto& axis : plan.axes) {
    if (axis.zipped) search_axes.push_back(&axis);
  }
  std::vector<std::vector<const SweepAxis*>> factors;
  for (const auto& axis : plan.axes) {
    if (!axis.zipped) factors.push_back({&axis});
  }
  if (!search_axes.empty()) factors.push_back(search_axes);
  for (const auto& factor : factors) {
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    std::vector<std::vector<std::string>> next_overrides;
    std::vector<std::vector<std::string>> next_locations;
    for (std::size_t p = 0; p < points.size(); ++p) {
      for (std::size_t v = 0; v < factor.front()->values.size(); ++v) {
        auto extended = points[p];
        auto applied = point_overrides[p];
        auto located = point_locations[p];
        for (const SweepAxis* axis : factor) {
          extended.emplace_back(axis->key, axis->values[v]);
          applied.insert(applied.end(), axis->overrides[v].begin(), axis->overrides[v].end());
          located.insert(located.end(), axis->locations[v].begin(), axis->locations[v].end());
        }
        next.push_back(std::move(extended));
        next_overrides.push_back(std::move(applied));
        next_locations.push_back(std::move(located));
      }
    }
    points = std::move(next);
    point_overrides = std::move(next_overrides);
    point_locations = std::move(next_locations);
  }
  // Every point is the parsed pipeline with its values applied, then undone for the next point: the
  // file is read once (re-reading it per point made planning quadratic in the points), and each
  // node keeps its file:line.
  std::set<std::pair<std::string, std::string>> reported;  // (where, message) of errors
  for (std::size_t p = 0; p < points.size(); ++p) {
    try {
      std::vector<Diagnostic> point_errors;
      const SweepPointOverrides applied(source.table, point_overrides[p], point_locations[p], point_errors);
      if (!point_errors.empty()) throw ConfigError(point_errors);
      // Each value is validated against the schema of the component it reaches at this point,
      // and a problem is located at the value in the [sweep] table.
      Pipeline point = validate_pipeline(source, catalog);
      check_data_memory(point, catalog);
      plan.points.push_back(std::move(point));
    } catch (const ConfigError& e) {
      // The same problem in every point is reported once.
      for (const auto& d : e.diagnostics()) {
        if (reported.insert({d.where, d.message}).second) errors.push_back(d);
      }
    }
  }
  if (!errors.empty()) throw ConfigError(errors);

  // A sweep that sets experiment.seeds is counted here, once its points know their seeds.
  std::size_t total = 0;
  for (const auto& point : plan.points) total += point.seeds.size();
  if (total > kMaxJobsPerRun) {
    throw ConfigError({too_many_jobs(run_size_location(source.table), source.table, plan.axes, double(total), true)});
  }
  plan.jobs.reserve(total);
  for (std::size_t p = 0; p < points.size(); ++p) {
    const std::string computed = plan.points[p].computed_toml();
    for (std::int64_t seed : plan.points[p].seeds) {
      JobSpec job;
      job.index = plan.jobs.size();
      job.point = p;
      job.assignments = points[p];
      job.seed = seed;
      job.id = job_id_of(computed, seed);
      job.dir = job_directory_name(job.index, job.id);
      plan.jobs.push_back(std::move(job));
    }
  }
  return plan;
}

}  // namespace featurelab
