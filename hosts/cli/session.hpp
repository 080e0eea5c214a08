// What every subcommand needs: a session over the plugins on the search path (the core's facade), and the logger.
#pragma once

#include "commands.hpp"

#include <featurelab/core/session.hpp>

#include <spdlog/logger.h>

#include <memory>

namespace featurelab::cli {

std::shared_ptr<spdlog::logger> make_logger(const GlobalOptions& global);
// A session over the packs on --plugin-path, FEATURELAB_PLUGIN_PATH and the install directory, logging to stderr;
// with `show_problems`, the packs it could not use are warned about first.
Session open_session(const GlobalOptions& global, bool show_problems = true);
// First line (or sentence) of a doc string, for one-line listings.
std::string summary_line(const std::string& doc, std::size_t width = 72);

}  // namespace featurelab::cli
