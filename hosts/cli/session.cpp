// Catalog discovery and logging shared by the subcommands.
#include "session.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace featurelab::cli {

Catalog discover(const GlobalOptions& global) {
  Catalog catalog;
  catalog.discover(Catalog::search_path(global.plugin_paths));
  return catalog;
}

std::shared_ptr<spdlog::logger> make_logger(const GlobalOptions& global) {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  auto log = std::make_shared<spdlog::logger>("featurelab", sink);
  log->set_pattern("%^%l%$ %v");
  log->set_level(global.quiet ? spdlog::level::warn : global.verbose ? spdlog::level::debug : spdlog::level::info);
  return log;
}

std::string summary_line(const std::string& doc, std::size_t width) {
  std::string line = doc.substr(0, doc.find('\n'));
  if (auto stop = line.find(". "); stop != std::string::npos) line = line.substr(0, stop + 1);
  if (line.size() > width) line = line.substr(0, width - 3) + "...";
  return line;
}

}  // namespace featurelab::cli
