// featurelab plot RUN / featurelab report RUN: figures and one HTML page of a run.
#include "session.hpp"

#include <featurelab/core/errors.hpp>
#include <featurelab/core/html_report.hpp>
#include <featurelab/core/plot.hpp>

#include <iostream>

namespace featurelab::cli {

Action add_plot_command(CLI::App& app, const GlobalOptions&) {
  auto* sub = app.add_subcommand("plot", "Draw a run's metrics (PNG and SVG, --pdf: PDF too, under RUN/plots)");
  auto runs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto request = std::make_shared<PlotRequest>();
  sub->add_option("runs", *runs, "Run directory (several: their curves in the same plots, into --out)")->required();
  sub->add_option("-o,--out", *out, "Directory for the plots of several runs (one run: RUN/plots)")->type_name("DIR");
  sub->add_option("--metric", request->metrics, "Metric or pattern (*, ?) to draw (repeatable; default: all)");
  sub->add_option("--x", request->x, "x axis: step (default) or a [sweep] key");
  sub->add_flag("--log-x", request->log_x, "Logarithmic x axis");
  sub->add_flag("--log-y", request->log_y, "Logarithmic y axis");
  sub->add_flag("--pdf", request->pdf, "A PDF of each plot too, sized for a paper (6 × 4 in)");
  return [runs, out, request]() {
    if (runs->size() > 1 && out->empty()) {
      throw ConfigError(std::vector<Diagnostic>{{"--out", "several runs are drawn into a directory of their own: give --out DIR"}});
    }
    const std::vector<std::filesystem::path> dirs(runs->begin(), runs->end());
    const auto files = runs->size() == 1 && out->empty() ? plot_run(dirs.front(), *request) : plot_runs(dirs, *request, *out);
    for (const auto& file : files) std::cout << file.string() << "\n";
    return int(kExitOk);
  };
}

Action add_report_command(CLI::App& app, const GlobalOptions&) {
  auto* sub = app.add_subcommand("report", "Write RUN/report.html: jobs, assertions, summary, plots, configuration "
                                           "(several runs: one page in --out DIR, their curves together)");
  auto runs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  sub->add_option("runs", *runs, "Run directory (several: one page comparing them, into --out)")->required();
  sub->add_option("-o,--out", *out, "Directory for the page of several runs (one run: RUN/report.html)")->type_name("DIR");
  return [runs, out]() {
    if (runs->size() > 1 && out->empty()) {
      throw ConfigError(std::vector<Diagnostic>{{"--out", "several runs are reported on a page of their own: give --out DIR"}});
    }
    const std::vector<std::filesystem::path> dirs(runs->begin(), runs->end());
    std::cout << (dirs.size() == 1 ? write_report(dirs.front()) : write_report(dirs, *out)).string() << "\n";
    return int(kExitOk);
  };
}

}  // namespace featurelab::cli
