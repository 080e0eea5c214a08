// Plots of a run directory, drawn by gnuplot (Debian's gnuplot-nox) as PNG and SVG (and PDF) under RUN/plots:
//   - a metric against the step: mean over seeds with a ±1 std band, one curve per sweep point;
//   - a metric (final value) against a swept parameter, one curve per other sweep coordinate;
//   - families <probe>.<key>=<number> (robust-accuracy.r=…): the final value against the number;
//   - heatmaps of table probes (e.g. the neuron × feature cosine matrix) at their last step.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace featurelab {

struct PlotRequest {
  std::vector<std::string> metrics;  // empty: every scalar metric
  std::string x = "step";            // "step" or a [sweep] key
  bool tables = true;                // heatmaps of table probes
  bool log_x = false, log_y = false; // logarithmic axes on the curves
  bool pdf = false;                  // a PDF of each plot too (vector, sized for a paper's figure)
};

// Returns the files written. Throws featurelab::Error (gnuplot missing, unknown metric or key).
std::vector<std::filesystem::path> plot_run(const std::filesystem::path& run_dir, const PlotRequest& request);

// Several runs in the same plots, into out_dir: each run's sweep points its own curves, labelled "run=NAME …" (the
// run directory's name); the axes of --x are the first run's; no heat maps (each is one job's table).
std::vector<std::filesystem::path> plot_runs(const std::vector<std::filesystem::path>& run_dirs, const PlotRequest& request,
                                             const std::filesystem::path& out_dir);

}  // namespace featurelab
