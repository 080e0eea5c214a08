// Reading a pipeline: the TOML file, its `base = [...]` files deep-merged underneath it, then the
// command line's --set overrides on top. Every node keeps where it came from, for messages.
//
// Merge rule: tables merge key by key; any other value, arrays of tables ([[probe]]) included,
// is replaced as a whole by the later file.
#pragma once

#include "errors.hpp"

#include <toml++/toml.h>

#include <filesystem>
#include <map>
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

// "file:line:col" of a node, or "--set key" / "file:line:col ([sweep] key)" for overridden
// values, or "" when unknown.
std::string where(const toml::node& node);

}  // namespace featurelab
