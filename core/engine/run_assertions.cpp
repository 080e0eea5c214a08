// Assertion checks before and after a run.
#include "engine/run_assertions.hpp"

#include "engine/assertion.hpp"
#include "engine/metrics_writer.hpp"

#include <spdlog/spdlog.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace featurelab {

using nlohmann::json;

std::string unquote(const std::string& v) {
  return v.size() >= 2 && v.front() == '"' && v.back() == '"' ? v.substr(1, v.size() - 2) : v;
}

std::vector<std::pair<std::string, std::string>> parse_where(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string item;
  std::istringstream in(text);
  while (in >> item) {
    std::istringstream parts(item);
    std::string piece;
    while (std::getline(parts, piece, ',')) {
      if (piece.empty()) continue;
      const auto eq = piece.find('=');
      if (eq == std::string::npos || eq == 0) throw Error("where: expected key=value, got '" + piece + "'");
      out.emplace_back(piece.substr(0, eq), unquote(piece.substr(eq + 1)));
    }
  }
  return out;
}

// Evaluates every assertion over the jobs; logs the verdicts; returns (json, all held).
std::pair<json, bool> evaluate_assertions(const std::vector<AssertSpec>& asserts, const std::vector<JobRecord>& jobs,
                                          spdlog::logger* log) {
  // point index -> its assignments (unquoted); seeds in order of appearance.
  std::map<std::size_t, std::vector<std::pair<std::string, std::string>>> points;
  std::vector<std::int64_t> seeds;
  for (const auto& j : jobs) {
    auto& a = points[j.spec.point];
    if (a.empty()) {
      for (const auto& [k, v] : j.spec.assignments) a.emplace_back(k, unquote(v));
    }
    if (std::find(seeds.begin(), seeds.end(), j.spec.seed) == seeds.end()) seeds.push_back(j.spec.seed);
  }
  auto find_point = [&](const std::vector<std::pair<std::string, std::string>>& want) -> long {
    for (const auto& [index, assignments] : points) {
      if (assignments == want) return static_cast<long>(index);
    }
    return -1;
  };
  auto find_job = [&](std::size_t point, std::int64_t seed) -> const JobRecord* {
    for (const auto& j : jobs) {
      if (j.spec.point == point && j.spec.seed == seed) return &j;
    }
    return nullptr;
  };
  json results = json::array();
  bool all = true;
  for (const auto& a : asserts) {
    const Assertion parsed = Assertion::parse(a.expect);
    const auto filter = parse_where(a.points);
    std::string missing;
    json checks = json::array();
    bool holds = true;
    bool any_checked = false;
    for (const auto& point_entry : points) {
      const auto& assignments = point_entry.second;  // a plain reference: lambdas may not capture bindings (C++17)
      bool selected = true;
      for (const auto& [k, v] : filter) {
        bool match = false;
        for (const auto& [pk, pv] : assignments) match |= pk == k && pv == v;
        selected &= match;
      }
      if (!selected) continue;
      auto value_for = [&](std::int64_t seed, const std::string& metric, const Selector& sel) {
        auto target = assignments;
        std::string at = a.at;  // [step=N] reads another step than the assertion's `at`
        for (const auto& [k, v] : sel) {
          if (k == "step") {
            at = v;
            continue;
          }
          for (auto& [pk, pv] : target) {
            if (pk == k) pv = v;
          }
        }
        const long q = find_point(target);
        const JobRecord* job = q < 0 ? nullptr : find_job(static_cast<std::size_t>(q), seed);
        if (!job || !job->ok()) {
          missing = "no finished job for " + metric + " at seed " + std::to_string(seed);
          return std::nan("");
        }
        auto it = job->history.find(metric);
        if (it == job->history.end()) {
          missing = metric + " was not recorded";
          return std::nan("");
        }
        if (at == "final") return it->second.back().second;
        for (const auto& [s, v] : it->second) {
          if (std::to_string(s) == at) return v;
        }
        missing = metric + " has no value at step " + at;
        return std::nan("");
      };
      std::string label;
      for (const auto& [k, v] : assignments) label += (label.empty() ? "" : " ") + k + "=" + v;
      if (a.over == "mean") {
        const auto o = parsed.evaluate([&](const std::string& m, const Selector& sel) {
          double sum = 0;
          for (auto seed : seeds) sum += value_for(seed, m, sel);
          return sum / static_cast<double>(seeds.size());
        });
        checks.push_back({{"point", label}, {"lhs", json_number(o.lhs)}, {"rhs", json_number(o.rhs)}, {"holds", o.holds}});
        holds &= o.holds;
      } else {
        int held = 0;
        for (auto seed : seeds) {
          const auto o = parsed.evaluate([&](const std::string& m, const Selector& sel) { return value_for(seed, m, sel); });
          held += o.holds;
          checks.push_back({{"point", label}, {"seed", seed}, {"lhs", json_number(o.lhs)}, {"rhs", json_number(o.rhs)},
                            {"holds", o.holds}});
        }
        holds &= a.over == "any" ? held > 0 : held == static_cast<int>(seeds.size());
      }
      any_checked = true;
    }
    holds &= any_checked;
    json entry{{"expect", a.expect}, {"at", a.at}, {"over", a.over}, {"holds", holds}, {"checks", checks}};
    if (!a.points.empty()) entry["where"] = a.points;
    if (!missing.empty()) entry["missing"] = missing;
    if (!any_checked) entry["missing"] = "no sweep point matches where = \"" + a.points + "\"";
    results.push_back(entry);
    all &= holds;
    if (log) {
      if (holds) {
        log->info("assert PASS  {}  ({}, {})", a.expect, a.at, a.over);
      } else {
        log->error("assert FAIL  {}  ({}, {}){}", a.expect, a.at, a.over,
                   entry.contains("missing") ? "; " + entry["missing"].get<std::string>() : std::string());
      }
    }
  }
  return {results, all};
}

void check_assertions(const RunPlan& plan) {
  std::vector<Diagnostic> errors;
  std::set<std::string> prefixes{"train"};
  for (const auto& p : plan.points) {
    for (const auto& probe : p.probes) prefixes.insert(probe.name);
  }
  std::map<std::string, std::set<std::string>> axis_values;
  for (const auto& axis : plan.axes) {
    for (const auto& v : axis.values) axis_values[axis.key].insert(unquote(v));
  }
  auto check_pairs = [&](const std::vector<std::pair<std::string, std::string>>& pairs, const std::string& where,
                         const std::string& path, bool steps) {
    for (const auto& [k, v] : pairs) {
      if (steps && k == "step") {
        if (v != "final" && (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)) {
          errors.push_back({where, path + ": step=" + v + " is not a step; write a step number or step=final"});
        }
        continue;
      }
      auto it = axis_values.find(k);
      if (it == axis_values.end()) {
        errors.push_back({where, path + ": '" + k + "' is not a [sweep] key" +
                                     (axis_values.empty() ? " (this pipeline has no [sweep])" : "")});
      } else if (!it->second.count(v)) {
        std::string known;
        for (const auto& x : it->second) known += (known.empty() ? "" : ", ") + x;
        errors.push_back({where, path + ": " + k + " is never '" + v + "' in the sweep (values: " + known + ")"});
      }
    }
  };
  const auto& asserts = plan.points.front().asserts;
  for (std::size_t i = 0; i < asserts.size(); ++i) {
    const auto& a = asserts[i];
    const std::string path = "assert." + std::to_string(i);
    try {
      const Assertion parsed = Assertion::parse(a.expect);
      std::set<std::string> reported;  // a metric read twice ("m[step=600] > m[step=100]") is one error
      for (std::size_t m = 0; m < parsed.metrics().size(); ++m) {
        const auto& metric = parsed.metrics()[m];
        const auto dot = metric.find('.');
        if ((dot == std::string::npos || !prefixes.count(metric.substr(0, dot))) && reported.insert(metric).second) {
          std::string known;
          for (const auto& k : prefixes) known += (known.empty() ? "" : ", ") + k;
          errors.push_back({a.where, path + ".expect: '" + metric + "' names no probe of this pipeline; metrics are "
                                         "<probe name>.<metric>, with probe names: " + known});
        }
        check_pairs(parsed.selectors()[m], a.where, path + ".expect", true);
      }
      check_pairs(parse_where(a.points), a.where, path + ".where", false);
    } catch (const Error& e) {
      errors.push_back({a.where, path + ".expect: " + e.what()});
    }
  }
  if (!errors.empty()) throw ConfigError(errors);
}

}  // namespace featurelab
