// `featurelab serve RUN...`: a local page that follows runs while their jobs run. Read-only: it reads the run
// directories it was given and serves its own files (the page, its script, Chart.js) by fixed names; no request
// names a path. Bound to 127.0.0.1 unless told otherwise.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace featurelab {

struct ServeOptions {
  std::vector<std::filesystem::path> runs;
  std::string host = "127.0.0.1";
  int port = 8765;                    // 0: any free port (the one chosen is logged)
  std::filesystem::path web_dir;      // serve.html, serve.js and chart.min.js
  spdlog::logger* log = nullptr;
};

// Serves until SIGINT, SIGTERM or SIGHUP; returns the exit code (0). Throws featurelab::Error for a directory that is
// not a run, a port it cannot bind (naming it and the fix) or missing page files.
int serve_runs(const ServeOptions& options);

}  // namespace featurelab
