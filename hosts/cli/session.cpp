// Catalog discovery and logging shared by the subcommands.
#include "session.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace featurelab::cli {


std::shared_ptr<spdlog::logger> make_logger(const GlobalOptions& global) {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  auto log = std::make_shared<spdlog::logger>("featurelab", sink);
  log->set_pattern("%^%l%$ %v");
  log->set_level(global.quiet ? spdlog::level::warn : global.verbose ? spdlog::level::debug : spdlog::level::info);
  return log;
}

Session open_session(const GlobalOptions& global, bool show_problems) {
  Session session(global.plugin_paths, make_logger(global));
  if (show_problems) {
    for (const auto& problem : session.catalog().problems()) session.log().warn("{}", problem);
  }
  return session;
}

std::string summary_line(const std::string& doc, std::size_t width) {
  std::string line = doc.substr(0, doc.find('\n'));
  if (auto stop = line.find(". "); stop != std::string::npos) line = line.substr(0, stop + 1);
  if (line.size() > width) line = line.substr(0, width - 3) + "...";
  return line;
}

}  // namespace featurelab::cli
