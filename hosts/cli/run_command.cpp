// featurelab validate P.toml / featurelab run P.toml: check a pipeline, or run it.
#include "session.hpp"

#include "config/validate.hpp"
#include "engine/run.hpp"
#include "errors.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <unistd.h>

namespace featurelab::cli {

namespace {

std::atomic<bool> g_stop{false};

void on_interrupt(int) {
  // First Ctrl-C: finish the current step, write results, stop. Second: default (terminate).
  g_stop.store(true);
  std::signal(SIGINT, SIG_DFL);
}

struct PipelineArgs {
  std::string file;
  std::vector<std::string> overrides;
};

void add_pipeline_args(CLI::App* sub, PipelineArgs& args) {
  sub->add_option("pipeline", args.file, "Pipeline TOML file")->required();
  sub->add_option("--set", args.overrides,
                  "Override a key: --set model.width=200 --set augment.0.alpha=0.4 (repeatable)")
      ->type_name("KEY=VALUE");
}

Pipeline load_and_validate(const PipelineArgs& args, Catalog& catalog) {
  PipelineSource source = load_pipeline(args.file, args.overrides);
  Pipeline pipeline = validate_pipeline(source, catalog);
  check_assertions(pipeline);
  return pipeline;
}

}  // namespace

Action add_validate_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("validate", "Check a pipeline against the component schemas; run nothing");
  auto args = std::make_shared<PipelineArgs>();
  add_pipeline_args(sub, *args);
  auto print = std::make_shared<bool>(false);
  sub->add_flag("--print", *print, "Print the operative configuration (every parameter, defaults included)");
  return [&global, args, print]() {
    Catalog catalog = discover(global);
    Pipeline pipeline = load_and_validate(*args, catalog);
    if (*print) {
      std::cout << pipeline.operative_toml();
    } else {
      std::cout << args->file << ": ok (" << pipeline.seeds.size() << " seed(s), " << pipeline.probes.size()
                << " probe(s), " << pipeline.asserts.size() << " assertion(s))\n";
    }
    return int(kExitOk);
  };
}

Action add_run_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("run", "Run a pipeline: every seed, then its assertions");
  auto args = std::make_shared<PipelineArgs>();
  add_pipeline_args(sub, *args);
  auto out = std::make_shared<std::string>();
  sub->add_option("-o,--out", *out, "Run directory (default: runs/<pipeline name>)")->type_name("DIR");
  return [&global, args, out]() {
    Catalog catalog = discover(global);
    auto log = make_logger(global);
    for (const auto& problem : catalog.problems()) log->warn("{}", problem);
    Pipeline pipeline = load_and_validate(*args, catalog);
    RunOptions options;
    options.out = out->empty() ? std::filesystem::path("runs") / pipeline.name : std::filesystem::path(*out);
    options.live_progress = ::isatty(STDERR_FILENO) != 0 && !global.quiet;
    options.log = log.get();
    options.stop = &g_stop;
    std::signal(SIGINT, on_interrupt);
    log->info("running {} ({} seed(s)) into {}", pipeline.name, pipeline.seeds.size(), options.out.string());
    const int code = execute_run(pipeline, catalog, options);
    std::signal(SIGINT, SIG_DFL);
    return code;
  };
}

}  // namespace featurelab::cli
