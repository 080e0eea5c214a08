// featurelab export RUN... --out DIR: the runs' metrics as one long table and their final values as
// another (featurelab/core/tidy_writers.hpp), for pandas, R, SQLite or a spreadsheet.
#include "session.hpp"

#include <featurelab/core/errors.hpp>
#include <featurelab/core/tidy_tables.hpp>
#include <featurelab/core/tidy_writers.hpp>

#include <spdlog/spdlog.h>

#include <iostream>

namespace featurelab::cli {

Action add_export_command(CLI::App& app, const GlobalOptions& global) {
  auto* sub = app.add_subcommand("export", "Write runs' metrics as one long table (run, job, seed, sweep axes, step, "
                                           "metric, value, source: run or eval/NAME) and their final values as another: CSV, JSON lines or SQLite");
  auto runs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("csv");
  auto metrics = std::make_shared<std::vector<std::string>>();
  sub->add_option("runs", *runs, "Run directories")->required();
  sub->add_option("-o,--out", *out, "Directory for metrics.<ext> and final.<ext> (featurelab.sqlite)")->required()->type_name("DIR");
  sub->add_option("--format", *format, "csv (default), jsonl or sqlite")->check(CLI::IsMember({"csv", "jsonl", "sqlite"}));
  sub->add_option("--metric", *metrics, "Metric or pattern (*, ?) to keep (repeatable; default: all)");
  return [&global, runs, out, format, metrics]() {
    auto log = make_logger(global);
    const std::vector<std::filesystem::path> dirs(runs->begin(), runs->end());
    const TidyTables tables = read_tidy_tables(dirs, *metrics);
    const auto files = write_tidy_tables(tables, *out, tidy_format(*format));
    log->info("{} job(s) of {} run(s): {} metric rows, {} final values", tables.jobs.size(), dirs.size(), tables.metrics.size(),
              tables.finals.size());
    for (const auto& file : files) std::cout << file.string() << "\n";
    return int(kExitOk);
  };
}

}  // namespace featurelab::cli
