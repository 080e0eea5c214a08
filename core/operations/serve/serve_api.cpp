#include "operations/serve/serve_api.hpp"

#include <featurelab/core/config_diff.hpp>

#include <cmath>
#include <fstream>
#include <map>

namespace featurelab::serve_api {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json read_json(const fs::path& file) {
  std::ifstream in(file);
  return in ? json::parse(in, nullptr, false) : json();
}

// A number JSON can hold: NaN and infinities as null.
json number(double v) { return std::isfinite(v) ? json(v) : json(); }

// "model.width=40 optimizer.lr=0.1" of each sweep point, by point.
std::map<std::size_t, std::string> point_labels(const RunWatch& watch) {
  std::map<std::size_t, std::string> labels;
  for (const auto& job : watch.jobs()) labels.emplace(job.spec.point, job.spec.point_label());
  return labels;
}

}  // namespace

json runs(const std::vector<RunWatch>& watches) {
  json out = json::array();
  for (std::size_t r = 0; r < watches.size(); ++r) {
    const RunWatch& w = watches[r];
    std::map<std::string, std::size_t> states;
    for (const auto& job : w.jobs()) ++states[to_string(job.state)];
    json axes = json::array();
    for (const auto& axis : w.run().axes) axes.push_back({{"key", axis.key}, {"values", axis.values}});
    out.push_back({{"index", r}, {"name", w.run().name}, {"dir", w.dir().string()}, {"jobs", w.jobs().size()},
                   {"states", states}, {"metrics", w.metrics()}, {"axes", axes}, {"problem", w.problem()}});
  }
  return out;
}

json jobs(const RunWatch& watch) {
  json out = json::array();
  for (const auto& job : watch.jobs()) {
    out.push_back({{"index", job.spec.index}, {"seed", job.spec.seed}, {"point", job.spec.point},
                   {"label", job.spec.point_label()}, {"dir", job.spec.dir}, {"state", to_string(job.state)},
                   {"step", job.step}, {"steps", watch.total_steps()}, {"reason", job.reason}, {"init_from", job.init_from}});
  }
  return out;
}

json series(const RunWatch& watch, const std::string& metric) {
  // point → step → the seeds' values there
  std::map<std::size_t, std::map<Index, std::vector<double>>> values;
  for (const auto& job : watch.jobs()) {
    const auto found = job.history.find(metric);
    if (found == job.history.end()) continue;
    for (const auto& [step, value] : found->second) {
      if (std::isfinite(value)) values[job.spec.point][step].push_back(value);
    }
  }
  const auto labels = point_labels(watch);
  json out = json::array();
  for (const auto& [point, steps] : values) {
    json s = json::array(), mean = json::array(), low = json::array(), high = json::array(), n = json::array();
    for (const auto& [step, vs] : steps) {
      const auto [m, sd] = mean_and_sd(vs);
      s.push_back(step);
      mean.push_back(number(m));
      low.push_back(number(m - sd));
      high.push_back(number(m + sd));
      n.push_back(vs.size());
    }
    out.push_back({{"point", point}, {"label", labels.at(point)}, {"step", s}, {"mean", mean}, {"low", low},
                   {"high", high}, {"n", n}});
  }
  return out;
}

json finals(const RunWatch& watch) {
  std::map<std::size_t, std::map<std::string, std::vector<double>>> values;
  for (const auto& job : watch.jobs()) {
    if (job.state != JobState::ok) continue;
    for (const auto& [metric, history] : job.history) {
      if (!history.empty()) values[job.spec.point][metric].push_back(history.back().second);
    }
  }
  const auto labels = point_labels(watch);
  json out = json::array();
  for (const auto& [point, metrics] : values) {
    json row{{"point", point}, {"label", labels.at(point)}};
    json means = json::object();
    for (const auto& [metric, vs] : metrics) {
      double m = 0;
      for (double v : vs) m += v;
      means[metric] = number(m / static_cast<double>(vs.size()));
    }
    row["metrics"] = means;
    row["jobs"] = metrics.empty() ? 0 : metrics.begin()->second.size();
    out.push_back(row);
  }
  return out;
}

json assertions(const RunWatch& watch) {
  const json asserts = read_json(watch.dir() / "asserts.json");
  if (!asserts.is_array()) return {{"asserts", json::array()}, {"note", "not evaluated yet: the run has not ended"}};
  return {{"asserts", asserts}, {"note", ""}};
}

json diff(const RunWatch& a, const RunWatch& b) {
  const ConfigComparison c = compare_configurations(a.dir(), b.dir());
  json rows = json::array();
  for (const auto& d : c.differences) {
    rows.push_back({{"key", d.key}, {"left", d.left ? json(*d.left) : json()}, {"right", d.right ? json(*d.right) : json()}});
  }
  return {{"left", c.left}, {"right", c.right}, {"keys", c.keys}, {"differences", rows}};
}

json provenance(const RunWatch& watch) {
  const json run = read_json(watch.dir() / "run.json");
  return {{"manifest", read_json(watch.dir() / "manifest.json")},
          {"provenance", run.is_object() ? run.value("provenance", json()) : json()},
          {"overrides", run.is_object() ? run.value("overrides", json::array()) : json::array()}};
}

}  // namespace featurelab::serve_api
