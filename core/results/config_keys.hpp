// An operative configuration (config.toml, or any TOML file) as dotted keys and the TOML text of their values:
// tables dotted ("model.width"), arrays of tables by index ("probe.0.every"), other arrays and inline tables whole,
// floats in their shortest exact form (0.1, not config.toml's 0.10000000000000001). `featurelab diff` compares
// two of them; export puts the keys whose values differ between runs in columns.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace featurelab {

// Throws featurelab::Error naming the file, line and column when it does not parse.
std::map<std::string, std::string> configuration_keys(const std::filesystem::path& toml_file);

}  // namespace featurelab
