// gnuplot scripts and data files for the plots of a run.
#include <featurelab/core/plot.hpp>

#include "operations/cluster/program_output.hpp"
#include "kernel/job/metrics_writer.hpp"
#include "results/run_records.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

struct Run {
  std::vector<SweepAxis> axes;
  std::vector<JobRecord> jobs;
};

Run load_run(const fs::path& dir) {
  const StoredRun stored = read_run_record(dir);
  Run run;
  run.axes = stored.axes;
  for (const auto& spec : stored.jobs) run.jobs.push_back(load_job(dir / "jobs" / spec.dir, spec));
  refuse_damaged_jobs(run.jobs);  // a curve or a mean without them would look whole
  return run;
}

std::string safe_name(std::string text) {
  for (char& c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_') c = '_';
  }
  return text;
}

// A sweep value as written in TOML ("\"binary\"") as a reader wants it in a legend (binary).
std::string unquoted(const std::string& v) {
  return v.size() >= 2 && v.front() == '"' && v.back() == '"' ? v.substr(1, v.size() - 2) : v;
}

// A gnuplot double-quoted string. Names come from pipelines and run directories someone else may have written: a
// newline would end the string and start a gnuplot command (`system '…'`), so every control character is written
// as gnuplot's escape for it (\n, \r, \t, or octal), never as itself.
std::string gp_quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\{:03o}", byte);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Text on one line of a data file's comment: control characters as spaces (gnuplot reads the next line as data).
std::string one_line(std::string text) {
  for (char& c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) c = ' ';
  }
  return text;
}

// The files drawn so far, and how: log axes on the curves, PDF beside PNG and SVG.
struct Output {
  std::vector<fs::path> files;
  bool log_x = false, log_y = false, pdf = false;

  // "set logscale …" for a curve plot's script, as asked.
  std::string axes() const { return std::string(log_x ? "set logscale x\n" : "") + (log_y ? "set logscale y\n" : ""); }
};

// gnuplot SCRIPT, as a program with one argument (no shell: the path is never parsed); its errors in SCRIPT.log.
void run_gnuplot(const fs::path& script) {
  const ProgramOutput result = run_program({"gnuplot", script.string()});
  const fs::path log = script.string() + ".log";
  std::ofstream(log) << result.err;
  if (result.exit_status != 0) {
    throw Error("gnuplot failed on " + script.string() + " (see " + log.string() + ")");
  }
}

// Writes script lines for both terminals.
void render(const fs::path& base, const std::string& body, Output& written) {
  const fs::path script = base.string() + ".gp";
  std::ofstream gp(script);
  std::vector<std::pair<std::string, std::string>> terminals{{"pngcairo size 900,600 noenhanced", ".png"},
                                                              {"svg size 900,600 dynamic noenhanced", ".svg"}};
  if (written.pdf) terminals.emplace_back("pdfcairo size 6in,4in noenhanced font ',9'", ".pdf");  // for a paper: vector, LaTeX-sized
  for (const auto& [terminal, ext] : terminals) {
    gp << "set terminal " << terminal << "\nset output " << gp_quote(base.string() + ext) << "\n" << body << "\n";
  }
  gp.close();
  run_gnuplot(script);
  for (const auto& [terminal, ext] : terminals) written.files.push_back(base.string() + ext);
}

std::vector<std::string> scalar_metrics(const Run& run) {
  std::set<std::string> names;
  for (const auto& j : run.jobs) {
    for (const auto& [m, _] : j.history) names.insert(m);
  }
  return {names.begin(), names.end()};
}

void plot_vs_step(const Run& run, const std::string& metric, const fs::path& dir, Output& written) {
  std::map<std::size_t, std::map<Index, std::vector<double>>> series;
  std::map<std::size_t, std::string> labels;
  for (const auto& j : run.jobs) {
    labels[j.spec.point] = j.spec.point_label();
    auto it = j.history.find(metric);
    if (it == j.history.end()) continue;
    for (const auto& [step, value] : it->second) series[j.spec.point][step].push_back(value);
  }
  if (series.empty()) return;
  const fs::path data = dir / (safe_name(metric) + ".step.dat");
  std::ofstream out(data);
  std::string plots;
  int block = 0;
  for (const auto& [point, steps] : series) {
    out << "# point " << point << " " << one_line(labels[point]) << "\n";
    for (const auto& [step, values] : steps) {
      const auto [mean, sd] = mean_and_sd(values);
      out << step << " " << json_number(mean) << " " << json_number(mean - sd) << " " << json_number(mean + sd) << "\n";
    }
    out << "\n\n";
    const std::string title = labels[point].empty() ? metric : labels[point];
    const int color = block % 8 + 1;
    plots += fmt::format("{}{} index {} using 1:3:4 with filledcurves fs transparent solid 0.2 noborder lc {} notitle, "
                         "{} index {} using 1:2 with lines lw 2 lc {} title {}",
                         plots.empty() ? "" : ", ", gp_quote(data.string()), block, color, gp_quote(data.string()),
                         block, color, gp_quote(title));
    ++block;
  }
  out.close();  // gnuplot reads the file next
  const std::string body = fmt::format("set title {}\nset xlabel 'step'\nset ylabel {}\nset key outside right\n"
                                       "set grid\n{}plot {}",
                                       gp_quote(metric + " (mean ± std over seeds)"), gp_quote(metric), written.axes(), plots);
  render(dir / safe_name(metric + ".vs-step"), body, written);
}

using Curves = std::map<std::string, std::vector<std::tuple<double, double, double>>>;  // label -> (x, mean, std)

// Draws curves of final values (mean ± std over seeds) against x, one per label, into base.png/.svg.
void render_curves(Curves& curves, const fs::path& base, const std::string& fallback_title, const std::string& title,
                   const std::string& x_label, const std::string& y_label, Output& written) {
  // No finished job yet (a run still going): nothing to draw, and gnuplot refuses an empty plot command.
  if (curves.empty()) return;
  const fs::path data = base.string() + ".dat";
  std::ofstream out(data);
  std::string plots;
  int block = 0;
  for (auto& [label, points] : curves) {
    std::sort(points.begin(), points.end());
    for (const auto& [x, mean, sd] : points) out << json_number(x) << " " << json_number(mean) << " " << json_number(sd) << "\n";
    out << "\n\n";
    plots += fmt::format("{}{} index {} using 1:2:3 with yerrorlines lw 2 title {}", plots.empty() ? "" : ", ",
                         gp_quote(data.string()), block++, gp_quote(label.empty() ? fallback_title : label));
  }
  out.close();  // gnuplot reads the file next
  const std::string body = fmt::format("set title {}\nset xlabel {}\nset ylabel {}\nset key outside right\nset grid\n{}plot {}",
                                       gp_quote(title), gp_quote(x_label), gp_quote(y_label), written.axes(), plots);
  render(base, body, written);
}

void plot_vs_param(const Run& run, const std::string& metric, const std::string& key, const fs::path& dir,
                   Output& written) {
  // Group points by their other coordinates; x is this key's (numeric) value.
  Curves curves;
  for (const auto& row : summarize(run.jobs)) {
    if (row.metric != metric) continue;
    std::string others;
    double x = std::nan("");
    for (const auto& [k, v] : row.assignments) {
      if (k == key) {
        char* end = nullptr;
        x = std::strtod(v.c_str(), &end);
        if (end == v.c_str()) throw Error("plot --x " + key + ": its values are not numbers ('" + v + "')");
      } else {
        others += (others.empty() ? "" : " ") + k + "=" + unquoted(v);
      }
    }
    if (!std::isnan(x)) curves[others].emplace_back(x, row.mean, row.std);
  }
  if (curves.empty()) return;
  render_curves(curves, dir / safe_name(metric + ".vs-" + key), metric, metric + " (final, mean ± std over seeds)", key,
                metric, written);
}

// Metrics named <probe>.<key>=<number> (robust-accuracy.r=0.5, r=1, ...) form a family: one
// curve of the final value against the number, per sweep point (robustness against the radius).
void plot_families(const Run& run, const std::vector<std::string>& metrics, const fs::path& dir,
                   Output& written) {
  std::map<std::string, std::map<std::string, double>> families;  // "robust-accuracy.r" -> metric -> x
  for (const auto& m : metrics) {
    const auto eq = m.rfind('=');
    if (eq == std::string::npos || eq == 0) continue;
    char* end = nullptr;
    const double x = std::strtod(m.c_str() + eq + 1, &end);
    if (end == m.c_str() + eq + 1 || *end != '\0') continue;
    families[m.substr(0, eq)][m] = x;
  }
  const auto rows = summarize(run.jobs);
  for (const auto& [family, members] : families) {
    if (members.size() < 2) continue;
    Curves curves;
    for (const auto& row : rows) {
      auto it = members.find(row.metric);
      if (it == members.end()) continue;
      std::string label;
      for (const auto& [k, v] : row.assignments) label += (label.empty() ? "" : " ") + k + "=" + unquoted(v);
      curves[label].emplace_back(it->second, row.mean, row.std);
    }
    const auto dot = family.rfind('.');
    render_curves(curves, dir / safe_name(family + ".curve"), family, family + "=x (final, mean ± std over seeds)",
                  dot == std::string::npos ? family : family.substr(dot + 1), family.substr(0, dot), written);
  }
}

// A table CSV whose row and column names are all numbers, not the indices 0, 1, … of both, and at least 5 of each, is a
// grid of coordinates (a decision grid): rewrite it as gnuplot's nonuniform matrix (first row x, first column y).
// False, writing nothing, otherwise: neurons × 2 features, named by index, is a matrix to draw cell by cell, not a
// plane drawn at equal scales (which made it a few pixels wide).
bool numeric_grid(const fs::path& csv, const fs::path& out_path) {
  std::ifstream in(csv);
  std::string line;
  std::vector<std::vector<std::string>> cells;
  while (std::getline(in, line)) {
    std::vector<std::string> row;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
      row.push_back(line.substr(start, comma - start));
    }
    row.push_back(line.substr(start));
    cells.push_back(std::move(row));
  }
  if (cells.size() < 6 || cells[0].size() < 6) return false;
  auto number = [](const std::string& t) {
    char* end = nullptr;
    std::strtod(t.c_str(), &end);
    return !t.empty() && end == t.c_str() + t.size();
  };
  bool indices = true;  // every name its own position: 0, 1, 2, …
  for (std::size_t c = 1; c < cells[0].size(); ++c) {
    if (!number(cells[0][c])) return false;
    indices = indices && cells[0][c] == std::to_string(c - 1);
  }
  for (std::size_t r = 1; r < cells.size(); ++r) {
    if (cells[r].empty() || !number(cells[r][0])) return false;
    indices = indices && cells[r][0] == std::to_string(r - 1);
  }
  if (indices) return false;
  std::ofstream out(out_path);
  out << cells[0].size() - 1;
  for (std::size_t c = 1; c < cells[0].size(); ++c) out << " " << cells[0][c];
  out << "\n";
  for (std::size_t r = 1; r < cells.size(); ++r) {
    for (std::size_t c = 0; c < cells[r].size(); ++c) out << (c ? " " : "") << cells[r][c];
    out << "\n";
  }
  return true;
}

// A table with columns named x and y is a point cloud (e.g. neuron-map's 2-D neuron directions): the
// 1-based gnuplot columns of x, y and of the first other column (the colour; 0 when there is none).
bool scatter_columns(const fs::path& csv, int& x, int& y, int& colour, bool& signs) {
  std::ifstream in(csv);
  std::string header;
  if (!std::getline(in, header)) return false;
  x = y = colour = 0;
  signs = false;
  int column = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = header.find(',', start);
    const std::string name = header.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    ++column;
    if (column > 1) {  // column 1 holds the row names
      if (name == "x") {
        x = column;
      } else if (name == "y") {
        y = column;
      } else if (colour == 0) {
        colour = column;
        signs = name.find("sign") != std::string::npos;  // ±1 values: a fixed colour scale
      }
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return x > 0 && y > 0;
}

// The columns x, y and colour (1-based, as scatter_columns finds them) of a point-cloud CSV as
// "x y colour" lines, for drawing over a grid (whose matrix file is space-separated).
void point_cloud_dat(const fs::path& csv, int x, int y, int colour, const fs::path& out_path) {
  std::ifstream in(csv);
  std::ofstream out(out_path);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::size_t start = 0;
    for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
      cells.push_back(line.substr(start, comma - start));
    }
    cells.push_back(line.substr(start));
    auto cell = [&](int c) { return c >= 1 && static_cast<std::size_t>(c) <= cells.size() ? cells[c - 1] : "0"; };
    out << cell(x) << " " << cell(y) << " " << (colour > 0 ? cell(colour) : "0") << "\n";
  }
}

void plot_tables(const fs::path& run_dir, const Run& run, const fs::path& dir, Output& written) {
  // The last step of each table in the first job of each sweep point.
  std::set<std::size_t> seen;
  for (const auto& j : run.jobs) {
    if (!seen.insert(j.spec.point).second) continue;
    const fs::path tables = run_dir / "jobs" / j.spec.dir / "tables";
    std::error_code ec;
    if (!fs::is_directory(tables, ec)) continue;
    std::map<std::string, std::pair<long, fs::path>> last;
    for (const auto& entry : fs::directory_iterator(tables, ec)) {
      const std::string name = entry.path().stem().string();  // probe.table.stepN
      const auto at = name.rfind(".step");
      if (at == std::string::npos) continue;
      const long step = std::strtol(name.c_str() + at + 5, nullptr, 10);
      auto& slot = last[name.substr(0, at)];
      if (slot.second.empty() || step > slot.first) slot = {step, entry.path()};
    }
    for (const auto& [table, found] : last) {
      const std::string suffix = j.spec.point_label().empty() ? "" : "." + safe_name(j.spec.point_label());
      const std::string title = gp_quote(table + " at step " + std::to_string(found.first) +
                                         (j.spec.point_label().empty() ? "" : " (" + j.spec.point_label() + ")"));
      const std::string base = "set title " + title + "\nset palette defined (-1 'blue', 0 'white', 1 'red')\n"
                               "set autoscale fix\n";
      const fs::path numeric = dir / safe_name(table + suffix + ".heatmap.dat");
      std::string body;
      int xc = 0, yc = 0, cc = 0;
      bool signs = false;
      if (scatter_columns(found.second, xc, yc, cc, signs)) {
        body = fmt::format("set title {}\nset datafile separator ','\nset key off\nset xlabel 'x'\nset ylabel 'y'\n"
                           "set size ratio -1\nset palette defined (-1 'blue', 0 'black', 1 'red')\n{}"
                           "plot {} skip 1 using {}:{}{} with points pt 7 ps 0.7{}",
                           title, signs ? "set cbrange [-1:1]\n" : "", gp_quote(found.second.string()), xc, yc, cc > 0 ? fmt::format(":{}", cc) : "",
                           cc > 0 ? " palette" : "");
        render(dir / safe_name(table + suffix + ".scatter"), body, written);
        continue;
      }
      if (numeric_grid(found.second, numeric)) {
        // Row and column names are coordinates (a decision grid): real axes, not one label per cell.
        // The same probe's point clouds are drawn over it (Figure 1 of Frei et al.: the training
        // points on the decision regions), each with its own marker, in dark red for a positive
        // colour value and dark blue otherwise, over paler regions so that they stand out.
        std::string overlays;
        const std::string probe = table.substr(0, table.rfind('.'));
        int marker = 0;
        for (const auto& [other, other_found] : last) {
          if (other == table || other.substr(0, other.rfind('.')) != probe) continue;
          int pxc = 0, pyc = 0, pcc = 0;
          bool psigns = false;
          if (!scatter_columns(other_found.second, pxc, pyc, pcc, psigns)) continue;
          const fs::path cloud = dir / safe_name(other + suffix + ".points.dat");
          point_cloud_dat(other_found.second, pxc, pyc, pcc, cloud);
          static constexpr int kMarkers[] = {7, 2, 6, 4};  // dot, cross, circle, square
          overlays += fmt::format(", {} using 1:2:($3 > 0 ? 0x8b0000 : 0x00008b) with points pt {} ps {} lc rgb variable "
                                  "title {}",
                                  gp_quote(cloud.string()), kMarkers[marker % 4], marker == 0 ? "0.3" : "1.0",
                                  gp_quote(other.substr(other.rfind('.') + 1)));
          ++marker;
        }
        body = base + fmt::format("set xlabel 'x1'\nset ylabel 'x2'\nset size ratio -1\n{}"
                                  "plot {} nonuniform matrix with image notitle{}",
                                  overlays.empty() ? "" : "set key outside\nset palette defined (-1 '#b4cdf5', 0 'white', 1 '#f5b4b4')\n",
                                  gp_quote(numeric.string()), overlays);
      } else {
        body = base + fmt::format("set datafile separator ','\nset xlabel 'column'\nset ylabel 'row'\n"
                                  "plot {} matrix rowheaders columnheaders with image notitle",
                                  gp_quote(found.second.string()));
      }
      render(dir / safe_name(table + suffix + ".heatmap"), body, written);
    }
  }
}

}  // namespace

std::vector<fs::path> plot_run(const fs::path& run_dir, const PlotRequest& request) {
  return plot_runs({run_dir}, request, run_dir / "plots");
}

std::vector<fs::path> plot_runs(const std::vector<fs::path>& run_dirs, const PlotRequest& request, const fs::path& out_dir) {
  if (run_program({"gnuplot", "--version"}).exit_status != 0) {
    throw Error("gnuplot is not installed; install it with: apt-get install gnuplot-nox");
  }
  if (run_dirs.empty()) throw Error("plot: give a run directory");
  const fs::path& run_dir = run_dirs.front();
  Run run = load_run(run_dir);
  if (run_dirs.size() > 1) {
    // Several runs as one: each job's sweep point numbered after the runs before it and labelled with its run
    // ("run=lr-0.1 model.width=8"), so every curve is a run's point; the axes are the first run's.
    run = Run{};
    std::set<std::string> names;
    for (const auto& dir : run_dirs) {
      Run one = load_run(dir);
      std::string name = fs::absolute(dir).lexically_normal().filename().string();
      for (int k = 2; !names.insert(name).second; ++k) name = fs::absolute(dir).lexically_normal().filename().string() + "-" + std::to_string(k);
      std::size_t offset = 0;  // the points of the runs before
      for (const auto& job : run.jobs) offset = std::max(offset, job.spec.point + 1);
      for (auto& job : one.jobs) {
        job.spec.point += offset;
        job.spec.assignments.insert(job.spec.assignments.begin(), {"run", "\"" + name + "\""});
        run.jobs.push_back(std::move(job));
      }
      if (run.axes.empty()) run.axes = one.axes;
    }
  }
  PlotRequest own = request;
  if (run_dirs.size() > 1) own.tables = false;  // a table's heat map is one job's: plot each run for those
  const auto all = scalar_metrics(run);
  // Each requested name is a metric or a shell-style pattern (fnmatch: *, ?, [...]) over them.
  std::vector<std::string> metrics = request.metrics.empty() ? all : std::vector<std::string>{};
  for (const auto& pattern : request.metrics) {
    const auto before = metrics.size();
    for (const auto& m : all) {
      if (fnmatch(pattern.c_str(), m.c_str(), 0) == 0 &&
          std::find(metrics.begin(), metrics.end(), m) == metrics.end()) {
        metrics.push_back(m);
      }
    }
    if (metrics.size() == before) {
      std::string known;
      for (const auto& k : all) known += (known.empty() ? "" : ", ") + k;
      throw Error("no metric matches '" + pattern + "' in " + run_dir.string() + "; recorded: " + known);
    }
  }
  if (request.x != "step") {
    bool found = false;
    for (const auto& a : run.axes) found |= a.key == request.x;
    if (!found) throw Error("--x " + request.x + ": not a [sweep] key of this run (use step or a swept key)");
  }
  const fs::path& dir = out_dir;
  fs::create_directories(dir);
  Output written;
  written.log_x = request.log_x;
  written.log_y = request.log_y;
  written.pdf = request.pdf;
  for (const auto& m : metrics) {
    if (request.x == "step") {
      plot_vs_step(run, m, dir, written);
    } else {
      plot_vs_param(run, m, request.x, dir, written);
    }
  }
  if (request.x == "step") plot_families(run, metrics, dir, written);
  if (own.tables) plot_tables(run_dir, run, dir, written);
  return written.files;
}

}  // namespace featurelab
