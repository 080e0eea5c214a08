// Seeds run one after another in this process; assertions are checked at the end.
#include "engine/run.hpp"

#include "engine/assertion.hpp"
#include "engine/job.hpp"
#include "engine/metrics_writer.hpp"

#include <featurelab/version.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <fstream>
#include <set>
#include <unistd.h>

#ifndef FEATURELAB_GIT_REVISION
#define FEATURELAB_GIT_REVISION ""
#endif

namespace featurelab {

namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& file, const std::string& text) {
  const fs::path tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error(file.string() + ": cannot write");
    out << text;
  }
  fs::rename(tmp, file);
}

std::string hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

nlohmann::json manifest(const Pipeline& p) {
  nlohmann::json m;
  m["featurelab_version"] = FEATURELAB_SDK_VERSION;
  m["abi"] = FEATURELAB_ABI_VERSION;
  m["git_revision"] = FEATURELAB_GIT_REVISION;
  m["host"] = hostname();
  m["fingerprint"] = build_fingerprint();
  m["pipeline"] = p.file.string();
  std::set<const PackRecord*> used;
  auto note = [&used](const ComponentConfig& c) {
    if (c.ref.pack) used.insert(c.ref.pack);
  };
  note(p.data);
  note(p.model);
  note(p.loss);
  note(p.optimizer);
  note(p.trainer);
  for (const auto* list : {&p.transforms, &p.augments, &p.probes, &p.attacks}) {
    for (const auto& c : *list) note(c);
  }
  nlohmann::json packs = nlohmann::json::array();
  for (const PackRecord* pack : used) {
    packs.push_back({{"pack", pack->manifest.name},
                     {"version", pack->manifest.version},
                     {"path", fs::absolute(pack->manifest.library_file).string()},
                     {"fingerprint", pack->manifest.fingerprint}});
  }
  m["packs"] = packs;
  return m;
}

std::set<std::string> metric_prefixes(const Pipeline& p) {
  std::set<std::string> prefixes{"train"};
  for (const auto& probe : p.probes) prefixes.insert(probe.name);
  return prefixes;
}

}  // namespace

void check_assertions(const Pipeline& p) {
  std::vector<Diagnostic> errors;
  const auto prefixes = metric_prefixes(p);
  for (std::size_t i = 0; i < p.asserts.size(); ++i) {
    const auto& a = p.asserts[i];
    const std::string path = "assert." + std::to_string(i) + ".expect";
    try {
      const Assertion parsed = Assertion::parse(a.expect);
      for (const auto& metric : parsed.metrics()) {
        const auto dot = metric.find('.');
        const std::string prefix = metric.substr(0, dot);
        if (dot == std::string::npos || !prefixes.count(prefix)) {
          std::string known;
          for (const auto& k : prefixes) known += (known.empty() ? "" : ", ") + k;
          errors.push_back({a.where, path + ": '" + metric + "' names no probe of this pipeline; metrics are "
                                         "<probe name>.<metric>, with probe names: " + known});
        }
      }
    } catch (const Error& e) {
      errors.push_back({a.where, path + ": " + e.what()});
    }
  }
  if (!errors.empty()) throw ConfigError(errors);
}

int execute_run(const Pipeline& p, Catalog& catalog, const RunOptions& options) {
  fs::create_directories(options.out / "jobs");
  write_file(options.out / "pipeline.toml", p.text);
  write_file(options.out / "config.toml", p.operative_toml());
  write_file(options.out / "manifest.json", manifest(p).dump(2) + "\n");

  std::vector<JobResult> results;
  bool failed = false;
  for (std::int64_t seed : p.seeds) {
    if (options.stop && options.stop->load()) break;
    JobOptions job;
    job.dir = options.out / "jobs" / ("seed-" + std::to_string(seed));
    job.seed = seed;
    job.log = options.log;
    job.live_progress = options.live_progress;
    job.stop = options.stop;
    JobResult result = run_job(p, catalog, job);
    if (!result.ok) {
      failed = true;
      options.log->error("seed {} failed: {}", seed, result.error);
    } else {
      options.log->info("seed {} done: {} steps in {:.2f}s", seed, result.steps, result.seconds);
    }
    results.push_back(std::move(result));
  }
  const bool interrupted = options.stop && options.stop->load();

  // Final metrics, for the terminal.
  if (!results.empty() && results.front().ok) {
    for (const auto& [metric, value] : results.front().final_metrics) {
      std::string line = fmt::format("  {:<40}", metric);
      for (const auto& r : results) {
        auto it = r.final_metrics.find(metric);
        line += it == r.final_metrics.end() ? "        -" : fmt::format(" {:>9.4g}", it->second);
      }
      options.log->info("{}", line);
    }
  }

  // Assertions over the seeds that finished.
  nlohmann::json asserts = nlohmann::json::array();
  bool assertion_failed = false;
  for (const auto& a : p.asserts) {
    const Assertion parsed = Assertion::parse(a.expect);
    std::vector<Assertion::Outcome> outcomes;
    std::string missing;
    auto value_at = [&](const JobResult& r, const std::string& metric) {
      auto it = r.history.find(metric);
      if (it == r.history.end() || it->second.empty()) {
        missing = metric;
        return std::nan("");
      }
      if (a.at == "final") return it->second.back().second;
      const Index step = std::stoll(a.at);
      for (const auto& [s, v] : it->second) {
        if (s == step) return v;
      }
      missing = metric + " at step " + a.at;
      return std::nan("");
    };
    nlohmann::json entry{{"expect", a.expect}, {"at", a.at}, {"over", a.over}};
    bool holds = false;
    if (a.over == "mean") {
      auto mean_of = [&](const std::string& metric) {
        double sum = 0;
        int count = 0;
        for (const auto& r : results) {
          if (!r.ok) continue;
          sum += value_at(r, metric);
          ++count;
        }
        return count ? sum / count : std::nan("");
      };
      const auto o = parsed.evaluate(mean_of);
      holds = o.holds;
      entry["lhs"] = o.lhs;
      entry["rhs"] = o.rhs;
    } else {
      int held = 0;
      int ran = 0;
      nlohmann::json per_seed = nlohmann::json::array();
      for (std::size_t i = 0; i < results.size(); ++i) {
        if (!results[i].ok) continue;
        ++ran;
        const auto o = parsed.evaluate([&](const std::string& m) { return value_at(results[i], m); });
        held += o.holds ? 1 : 0;
        per_seed.push_back({{"seed", p.seeds[i]}, {"lhs", json_number(o.lhs)}, {"rhs", json_number(o.rhs)}, {"holds", o.holds}});
      }
      holds = ran > 0 && (a.over == "any" ? held > 0 : held == ran);
      entry["seeds"] = per_seed;
    }
    if (!missing.empty()) entry["missing"] = missing;
    entry["holds"] = holds;
    asserts.push_back(entry);
    assertion_failed |= !holds;
    const std::string verdict = holds ? "PASS" : "FAIL";
    if (holds) {
      options.log->info("assert {}  {}  ({}, {})", verdict, a.expect, a.at, a.over);
    } else {
      options.log->error("assert {}  {}  ({}, {}){}", verdict, a.expect, a.at, a.over,
                         missing.empty() ? "" : "; metric not recorded: " + missing);
    }
  }
  write_file(options.out / "asserts.json", asserts.dump(2) + "\n");
  options.log->info("results in {}", options.out.string());
  if (interrupted) return kExitInterrupted;
  if (failed || assertion_failed) return kExitRunFailed;
  return kExitOk;
}

}  // namespace featurelab
