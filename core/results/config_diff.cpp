// featurelab/core/config_diff.hpp: each side read into dotted keys and the TOML text of their values
// (results/config_keys.hpp), then the keys of both compared in order.
#include <featurelab/core/config_diff.hpp>

#include "results/config_keys.hpp"
#include "results/run_records.hpp"

#include <featurelab/error.hpp>

#include <map>

namespace featurelab {

namespace {

using Flat = std::map<std::string, std::string>;

// One side: what it is, and its keys.
std::string read_side(const std::filesystem::path& path, Flat& out) {
  namespace fs = std::filesystem;
  if (fs::is_directory(path)) {
    if (fs::exists(path / "run.json")) {
      const StoredRun run = read_run_record(path);
      out = configuration_keys(path / "config.toml");
      for (const SweepAxis& axis : run.axes) {
        std::string values = "[";
        for (std::size_t i = 0; i < axis.values.size(); ++i) values += (i ? ", " : "") + axis.values[i];
        out["[sweep] " + axis.key] = values + "]";
      }
      return "run " + path.string() + " (" + std::to_string(run.jobs.size()) + " jobs)";
    }
    if (fs::exists(path / "config.toml")) {
      out = configuration_keys(path / "config.toml");
      return "job " + path.string();
    }
    throw Error(path.string() + " is a directory without run.json or config.toml: give a run directory (featurelab run "
                "--out), one of its jobs (RUN/jobs/NNNN-…) or a TOML file");
  }
  if (!fs::exists(path)) {
    throw Error(path.string() + " does not exist: give a run directory, one of its jobs (RUN/jobs/NNNN-…) or a TOML file");
  }
  out = configuration_keys(path);
  return "file " + path.string();
}

}  // namespace

ConfigComparison compare_configurations(const std::filesystem::path& left, const std::filesystem::path& right) {
  ConfigComparison c;
  Flat a, b;
  c.left = read_side(left, a);
  c.right = read_side(right, b);
  auto i = a.begin();
  auto j = b.begin();
  const auto differ = [&](std::string key, std::optional<std::string> l, std::optional<std::string> r) {
    c.differences.push_back({std::move(key), std::move(l), std::move(r)});
  };
  while (i != a.end() || j != b.end()) {
    ++c.keys;
    if (j == b.end() || (i != a.end() && i->first < j->first)) {
      differ(i->first, i->second, std::nullopt);
      ++i;
    } else if (i == a.end() || j->first < i->first) {
      differ(j->first, std::nullopt, j->second);
      ++j;
    } else {
      if (i->second != j->second) differ(i->first, i->second, j->second);
      ++i;
      ++j;
    }
  }
  return c;
}

}  // namespace featurelab
