// `featurelab diff A B`: two operative configurations key by key. A and B are each a run directory (its config.toml,
// the configuration every job starts from, and its sweep axes), a job directory (its config.toml, what that job
// ran) or a TOML file.
//
//   const ConfigComparison c = compare_configurations("runs/a", "runs/b");
//   for (const ConfigDifference& d : c.differences) … d.key, d.left, d.right
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace featurelab {

struct ConfigDifference {
  // Dotted, with the index of an array of tables: "model.channels", "probe.0.every"; a run's sweep axis as
  // "[sweep] model.width" (its values as a list).
  std::string key;
  std::optional<std::string> left, right;  // the value as TOML writes it (floats in their shortest exact form); none: absent
};

struct ConfigComparison {
  std::string left, right;  // what each side is: "run runs/a (6 jobs)", "job runs/a/jobs/0003-…", "file x.toml"
  std::size_t keys = 0;     // the keys of both sides together
  std::vector<ConfigDifference> differences;  // by key
};

// Throws featurelab::Error naming the path when it is none of the three, or its TOML does not parse (file:line:col).
ConfigComparison compare_configurations(const std::filesystem::path& left, const std::filesystem::path& right);

}  // namespace featurelab
