// featurelab: list, describe, validate and run pipelines of plugin components.
//
// Exit codes: 0 success; 1 a job failed or an assertion did not hold (or no worker process could be
// started, or the run's summary could not be written); 2 bad command line, pipeline or data; 3 a
// plugin was not found or was refused; 75 busy: the run directory or job is in use by another
// featurelab process (try again when it is done); 128 + N stopped by signal N, after the running
// jobs finished their step and were marked interrupted: 130 Ctrl-C (SIGINT), 143 SIGTERM (kill,
// scancel, preemption), 129 SIGHUP (a closed terminal or ssh session). A second signal of the same
// kind terminates at once; the workers end with their parent.
#include "commands.hpp"

#include <featurelab/core/errors.hpp>
#include <featurelab/core/provenance.hpp>

#include "huge_pages.hpp"
#include "openmp_waiting.hpp"

#include <featurelab/product_kernel.hpp>
#include <featurelab/version.hpp>

#include <cstdio>
#include <functional>
#include <iostream>

int main(int argc, char** argv) {
  using namespace featurelab;
  cli::restart_with_huge_pages(argv);  // first: glibc reads its tunables only when a process starts
  cli::restart_with_brief_openmp_waits(argv);  // and libgomp its settings
  set_command_line(std::vector<std::string>(argv, argv + argc));  // for run.json and summary.json
  CLI::App app{"featurelab: feature-learning experiments from plugin components and TOML pipelines.\n"
               "Exit codes: 0 ok, 1 job or assertion failed, 2 bad input, 3 plugin refused, 75 run directory or\n"
               "job busy (in use by another featurelab), 128+N stopped by signal N: 130 Ctrl-C, 143 SIGTERM,\n"
               "129 SIGHUP (running jobs finish their step and are marked interrupted; resume with --resume)."};
  app.set_version_flag("--version", std::function<std::string()>([] {
    return std::string("featurelab ") + FEATURELAB_SDK_VERSION + " (ABI " + std::to_string(FEATURELAB_ABI_VERSION) +
           ")\nproducts: " + product_kernel_name(product_kernel()) + ": " + product_kernel_reason();
  }));
  app.require_subcommand(1);
  app.fallthrough();  // global options (-q, --plugin-path) may also follow the subcommand
  cli::GlobalOptions global;
  app.add_option("--plugin-path", global.plugin_paths,
                 "Directory with plugin packs, searched before FEATURELAB_PLUGIN_PATH and the install "
                 "directory (repeatable; ':'-separated lists accepted)")
      ->type_name("DIR");
  app.add_flag("-v,--verbose", global.verbose, "Debug logging");
  app.add_flag("-q,--quiet", global.quiet, "Only warnings and errors");

  std::vector<cli::Action> actions;
  actions.push_back(cli::add_list_command(app, global));
  actions.push_back(cli::add_describe_command(app, global));
  actions.push_back(cli::add_validate_command(app, global));
  actions.push_back(cli::add_run_command(app, global));
  actions.push_back(cli::add_job_command(app, global));
  actions.push_back(cli::add_status_command(app, global));
  actions.push_back(cli::add_submit_command(app, global));
  actions.push_back(cli::add_collect_command(app, global));
  actions.push_back(cli::add_eval_command(app, global));
  actions.push_back(cli::add_export_command(app, global));
  actions.push_back(cli::add_plot_command(app, global));
  actions.push_back(cli::add_report_command(app, global));
  actions.push_back(cli::add_diff_command(app, global));
  actions.push_back(cli::add_serve_command(app, global));
  actions.push_back(cli::add_plugins_command(app, global));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }
  const auto subcommands = app.get_subcommands();
  const auto all = app.get_subcommands({});
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i] == subcommands.front()) {
      try {
        return actions[i]();
      } catch (const ConfigError& e) {
        for (const auto& d : e.diagnostics()) std::cerr << "error: " << d.format() << "\n";
        return kExitBadInput;
      } catch (const PluginError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kExitPluginRefused;
      } catch (const BusyError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kExitBusy;
      } catch (const StoppedError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return e.exit_code();
      } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kExitBadInput;
      }
    }
  }
  return kExitBadInput;
}
