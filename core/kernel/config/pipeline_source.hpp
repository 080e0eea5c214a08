// Reading a pipeline: the TOML file, its `base = [...]` files deep-merged underneath it, then the
// command line's --set overrides on top. Every node keeps where it came from, for messages.
//
// Merge rule: tables merge key by key; any other value, arrays of tables ([[probe]]) included,
// is replaced as a whole by the later file.
#pragma once

#include <featurelab/core/errors.hpp>

#include <toml++/toml.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace featurelab {

struct PipelineSource {
  std::filesystem::path file;
  std::string text;               // the input file as written
  toml::table table;              // merged result
};

// Throws ConfigError (parse errors with file:line:column, missing base files, bad --set).
// sweep_assignments ("key=value", from a [sweep] point) are applied after the overrides and
// located in messages as "file:line:col ([sweep] key)", with sweep_locations[i] the file:line:col
// of assignment i's value in the [sweep] table (or as "[sweep] key" where it is not given).
// (plan_run refuses a --set of a key the whole sweep sets: every point would replace it.)
PipelineSource load_pipeline(const std::filesystem::path& file, const std::vector<std::string>& overrides,
                             const std::vector<std::string>& sweep_assignments = {},
                             const std::vector<std::string>& sweep_locations = {});

// Applies one "dotted.key=value" override (value parsed as TOML, else taken as a string).
// origin names where it came from in messages: "--set" or "[sweep]"; located_at, when given, is
// the file:line:col the value was written at. A table's quoted dotted key is matched whole:
// sweep.model.width sets [sweep]'s "model.width" when the table has that key.
void apply_override(toml::table& table, const std::string& assignment, std::vector<Diagnostic>& errors,
                    const std::string& origin = "--set", const std::string& located_at = "");

// What one applied override changed, to undo it (SweepPointOverrides).
struct OverrideUndo {
  bool applied = false;
  std::vector<std::string> parent_path;  // keys and list indices from the root to the table changed
  std::string key;                       // the key set (or the table created) there
  std::unique_ptr<toml::node> previous;  // what it replaced, moved out; none: the key was new
};

// A sweep point's "key=value" assignments applied to a pipeline's merged table for as long as this
// object lives, then undone: the planner applies every point's values to one parsed table in turn,
// where re-reading the file per point made planning quadratic in the points, and a copied table
// would lose every node's file:line (toml++ copies no source regions; a move keeps them).
// Messages name the values as load_pipeline's sweep_assignments do.
class SweepPointOverrides {
 public:
  SweepPointOverrides(toml::table& table, const std::vector<std::string>& assignments,
                      const std::vector<std::string>& locations, std::vector<Diagnostic>& errors);
  ~SweepPointOverrides();
  SweepPointOverrides(const SweepPointOverrides&) = delete;
  SweepPointOverrides& operator=(const SweepPointOverrides&) = delete;

 private:
  toml::table& table_;
  std::vector<OverrideUndo> undo_;
};

// "file:line:col" of a node, or "--set key" / "file:line:col ([sweep] key)" for overridden
// values, or "" when unknown.
std::string where(const toml::node& node);

}  // namespace featurelab
