// What every subcommand needs: the catalog of plugins on the search path, and the logger.
#pragma once

#include "commands.hpp"

#include "registry/catalog.hpp"

#include <spdlog/logger.h>

#include <memory>

namespace featurelab::cli {

Catalog discover(const GlobalOptions& global);
std::shared_ptr<spdlog::logger> make_logger(const GlobalOptions& global);
// First line (or sentence) of a doc string, for one-line listings.
std::string summary_line(const std::string& doc, std::size_t width = 72);

}  // namespace featurelab::cli
