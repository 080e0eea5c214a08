// featurelab plot RUN / featurelab report RUN: figures and one HTML page of a run.
#include "session.hpp"

#include <featurelab/core/errors.hpp>
#include <featurelab/core/html_report.hpp>
#include <featurelab/core/plot.hpp>

#include <iostream>

namespace featurelab::cli {

Action add_plot_command(CLI::App& app, const GlobalOptions&) {
  auto* sub = app.add_subcommand("plot", "Draw a run's metrics (PNG and SVG, --pdf: PDF too, under RUN/plots)");
  auto run = std::make_shared<std::string>();
  auto request = std::make_shared<PlotRequest>();
  sub->add_option("run", *run, "Run directory")->required();
  sub->add_option("--metric", request->metrics, "Metric or pattern (*, ?) to draw (repeatable; default: all)");
  sub->add_option("--x", request->x, "x axis: step (default) or a [sweep] key");
  sub->add_flag("--log-x", request->log_x, "Logarithmic x axis");
  sub->add_flag("--log-y", request->log_y, "Logarithmic y axis");
  sub->add_flag("--pdf", request->pdf, "A PDF of each plot too, sized for a paper (6 × 4 in)");
  return [run, request]() {
    for (const auto& file : plot_run(*run, *request)) std::cout << file.string() << "\n";
    return int(kExitOk);
  };
}

Action add_report_command(CLI::App& app, const GlobalOptions&) {
  auto* sub = app.add_subcommand("report", "Write RUN/report.html: configuration, assertions, summary, plots");
  auto run = std::make_shared<std::string>();
  sub->add_option("run", *run, "Run directory")->required();
  return [run]() {
    std::cout << write_report(*run).string() << "\n";
    return int(kExitOk);
  };
}

}  // namespace featurelab::cli
