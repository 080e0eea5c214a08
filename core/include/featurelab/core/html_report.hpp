// One HTML page per run: configuration, assertion verdicts, the summary table and every plot.
#pragma once

#include <filesystem>
#include <vector>

namespace featurelab {

// Draws the plots (if gnuplot is installed) and writes RUN/report.html; returns its path.
std::filesystem::path write_report(const std::filesystem::path& run_dir);

// Several runs on one page, OUT/report.html: their curves in the same plots (OUT/plots), each run's differences from
// the first (featurelab diff), then each run's sections. One run: write_report(run).
std::filesystem::path write_report(const std::vector<std::filesystem::path>& run_dirs, const std::filesystem::path& out_dir);

}  // namespace featurelab
