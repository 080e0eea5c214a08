// One HTML page per run: configuration, assertion verdicts, the summary table and every plot.
#pragma once

#include <filesystem>

namespace featurelab {

// Draws the plots (if gnuplot is installed) and writes RUN/report.html; returns its path.
std::filesystem::path write_report(const std::filesystem::path& run_dir);

}  // namespace featurelab
