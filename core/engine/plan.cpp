// Sweep expansion: each point is the pipeline re-read with the point's values applied as
// overrides, so every message keeps its file and line, and swapping a component's `use`
// validates the point's parameters against the new component's schema.
#include "engine/plan.hpp"

#include "config/validate.hpp"
#include "engine/memory_budget.hpp"
#include "registry/catalog.hpp"

#include <fmt/format.h>

#include <sstream>

namespace featurelab {

namespace {

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
  // An axis is a column of summary.csv beside these: the same name would make the table ambiguous.
  for (const char* column : {"run", "point", "metric", "n", "mean", "std", "min", "max", "seed"}) {
    if (name == column) {
      errors.push_back({where(values), "sweep." + name + ": '" + name + "' is a column of summary.csv; name the axis otherwise "
                                       "(e.g. sweep." + name + "_value)"});
    }
  }
  if (name == "step") {
    errors.push_back({where(values), "sweep.step: 'step' selects a training step in [[assert]] expressions "
                                     "(metric[step=100]); name the axis otherwise (e.g. sweep.steps)"});
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
      continue;
    }
    SweepAxis axis;
    axis.key = dotted;
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

std::string JobSpec::point_label() const {
  std::string out;
  for (const auto& [key, value] : assignments) {
    std::string v = value;
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    out += (out.empty() ? "" : " ") + key + "=" + v;
  }
  return out;
}

std::string job_id(const Pipeline& pipeline, std::int64_t seed) {
  // The experiment's name and seed list do not change what a job computes: leave them out, so a
  // job keeps its id (and its results on --resume) when seeds are added. Nor do the assertions:
  // adding or editing one re-checks a finished run without rerunning its jobs.
  Pipeline computed = pipeline;
  computed.asserts.clear();
  const std::string config = computed.operative_toml();
  const auto body = config.find("[data]");
  return fmt::format("{:016x}", stable_hash(config.substr(body == std::string::npos ? 0 : body),
                                            static_cast<std::uint64_t>(seed)));
}

RunPlan plan_run(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                 const Catalog& catalog) {
  RunPlan plan;
  plan.file = file;
  plan.overrides = overrides;
  PipelineSource source = load_pipeline(file, overrides);
  plan.text = source.text;
  std::vector<Diagnostic> errors;
  if (const toml::node* sweep = source.table.get("sweep")) {
    if (const auto* t = sweep->as_table()) {
      flatten(*t, "", plan.axes, errors);
    } else {
      errors.push_back({where(*sweep), "sweep: expected a table [sweep] of key = [values]"});
    }
  }
  check_swept_overrides(source.table, plan.axes, overrides, errors, plan.warnings);
  if (!errors.empty()) throw ConfigError(errors);

  // Cartesian product, last axis fastest: each point's coordinates and the overrides they apply.
  std::vector<std::vector<std::pair<std::string, std::string>>> points{{}};
  std::vector<std::vector<std::string>> point_overrides{{}};
  std::vector<std::vector<std::string>> point_locations{{}};
  for (const auto& axis : plan.axes) {
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    std::vector<std::vector<std::string>> next_overrides;
    std::vector<std::vector<std::string>> next_locations;
    for (std::size_t p = 0; p < points.size(); ++p) {
      for (std::size_t v = 0; v < axis.values.size(); ++v) {
        auto extended = points[p];
        extended.emplace_back(axis.key, axis.values[v]);
        next.push_back(std::move(extended));
        auto applied = point_overrides[p];
        applied.insert(applied.end(), axis.overrides[v].begin(), axis.overrides[v].end());
        next_overrides.push_back(std::move(applied));
        auto located = point_locations[p];
        located.insert(located.end(), axis.locations[v].begin(), axis.locations[v].end());
        next_locations.push_back(std::move(located));
      }
    }
    points = std::move(next);
    point_overrides = std::move(next_overrides);
    point_locations = std::move(next_locations);
  }
  for (std::size_t p = 0; p < points.size(); ++p) {
    const auto& assignments = point_overrides[p];
    try {
      // Each value is validated against the schema of the component it reaches at this point,
      // and a problem is located at the value in the [sweep] table.
      Pipeline point = validate_pipeline(load_pipeline(file, overrides, assignments, point_locations[p]), catalog);
      check_data_memory(point, catalog);
      plan.points.push_back(std::move(point));
    } catch (const ConfigError& e) {
      for (const auto& d : e.diagnostics()) {
        // The same problem in every point is reported once.
        bool seen = false;
        for (const auto& prior : errors) seen |= prior.where == d.where && prior.message == d.message;
        if (!seen) errors.push_back(d);
      }
    }
  }
  if (!errors.empty()) throw ConfigError(errors);

  for (std::size_t p = 0; p < points.size(); ++p) {
    for (std::int64_t seed : plan.points[p].seeds) {
      JobSpec job;
      job.index = plan.jobs.size();
      job.point = p;
      job.assignments = points[p];
      job.seed = seed;
      job.id = job_id(plan.points[p], seed);
      job.dir = fmt::format("{:04d}-{}", job.index, job.id.substr(0, 8));
      plan.jobs.push_back(std::move(job));
    }
  }
  return plan;
}

}  // namespace featurelab
