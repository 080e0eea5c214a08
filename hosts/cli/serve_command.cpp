// featurelab serve RUN... [--port N] [--host H]: a local page that follows the runs while their jobs run.
#include "session.hpp"

#include <featurelab/core/errors.hpp>
#include <featurelab/core/serve.hpp>

#include <filesystem>

namespace featurelab::cli {

namespace {

// The page's files beside this executable as installed and as built: bin/../share/featurelab/web.
std::filesystem::path web_directory() {
  std::error_code error;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  return exe.parent_path().parent_path() / "share" / "featurelab" / "web";
}

}  // namespace

Action add_serve_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("serve", "A local page that follows runs while they run: jobs, charts of every metric "
                                          "(mean ± std per sweep point), assertions, the runs' differences");
  auto options = std::make_shared<ServeOptions>();
  auto runs = std::make_shared<std::vector<std::string>>();
  sub->add_option("runs", *runs, "Run directories (several: overlaid)")->required();
  sub->add_option("--port", options->port, "TCP port (default 8765; 0: any free one, logged)")->check(CLI::Range(0, 65535));
  sub->add_option("--host", options->host, "Address to listen on (default 127.0.0.1: this machine only)");
  return [&global, options, runs]() {
    auto log = make_logger(global);
    for (const auto& r : *runs) options->runs.emplace_back(r);
    options->web_dir = web_directory();
    options->log = log.get();
    return serve_runs(*options);
  };
}

}  // namespace featurelab::cli
