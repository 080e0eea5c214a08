// The subcommands of `featurelab`; each registers its options and returns an exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace featurelab::cli {

struct GlobalOptions {
  std::vector<std::string> plugin_paths;
  bool verbose = false;
  bool quiet = false;
};

using Action = std::function<int()>;

Action add_list_command(CLI::App& app, const GlobalOptions& global);
Action add_describe_command(CLI::App& app, const GlobalOptions& global);
Action add_validate_command(CLI::App& app, const GlobalOptions& global);
Action add_run_command(CLI::App& app, const GlobalOptions& global);
Action add_plugins_command(CLI::App& app, const GlobalOptions& global);
Action add_job_command(CLI::App& app, const GlobalOptions& global);
Action add_collect_command(CLI::App& app, const GlobalOptions& global);
Action add_status_command(CLI::App& app, const GlobalOptions& global);
Action add_submit_command(CLI::App& app, const GlobalOptions& global);
Action add_eval_command(CLI::App& app, const GlobalOptions& global);
Action add_export_command(CLI::App& app, const GlobalOptions& global);
Action add_plot_command(CLI::App& app, const GlobalOptions& global);
Action add_report_command(CLI::App& app, const GlobalOptions& global);
Action add_diff_command(CLI::App& app, const GlobalOptions& global);
Action add_serve_command(CLI::App& app, const GlobalOptions& global);

}  // namespace featurelab::cli
