// report.html: self-contained apart from the plot images it links under plots/. It reads a run as it stands: a run
// still going (or stopped) gets a banner with how many jobs are done and the plots of what they recorded.
#include <featurelab/core/html_report.hpp>

#include "results/config_keys.hpp"
#include "results/run_records.hpp"

#include <featurelab/core/config_diff.hpp>
#include <featurelab/core/plot.hpp>

#include <featurelab/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace featurelab {

namespace fs = std::filesystem;

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string read(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One CSV line's cells (RFC 4180: a quoted cell may hold commas and doubled quotes), as summary.csv writes them.
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

// A table cell: a number shown to 4 significant digits, its exact value on hover; any other text as it is.
std::string cell(const std::string& text, bool header) {
  if (header) return "<th>" + escape(text) + "</th>";
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size() && text.find_first_of("0123456789") != std::string::npos) {
    const std::string shown = fmt::format("{:.4g}", value);
    if (shown != text) return "<td title=\"" + escape(text) + "\">" + escape(shown) + "</td>";
  }
  return "<td>" + escape(text) + "</td>";
}

std::string plain(const std::string& toml_value) {
  return toml_value.size() >= 2 && toml_value.front() == '"' && toml_value.back() == '"' ? toml_value.substr(1, toml_value.size() - 2)
                                                                                            : toml_value;
}

void jobs_section(std::ostringstream& html, const std::vector<JobRecord>& jobs) {
  std::map<std::string, std::size_t> by_status;
  for (const auto& j : jobs) ++by_status[to_string(j.status)];
  std::string counts;
  for (const auto& [status, n] : by_status) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + status;
  const std::size_t ok = by_status.count("ok") ? by_status.at("ok") : 0;
  if (ok < jobs.size()) {
    html << "<p style=\"background:#fff3cd;padding:.5em\"><b>" << ok << " of " << jobs.size()
         << " jobs finished</b> (" << escape(counts) << "): the summary, the assertions and the curves' final values are "
            "those of the finished jobs; the curves show what every job recorded. Run <code>featurelab report</code> "
            "again for the rest.</p>\n";
  }
  html << "<h2>Jobs</h2>\n<p>" << jobs.size() << " job(s): " << escape(counts) << "</p>\n"
       << "<table><tr><th>#</th><th>seed</th><th>sweep point</th><th>status</th><th>seconds</th>"
          "<th style=\"text-align:left\">reason</th></tr>\n";
  for (const auto& j : jobs) {
    html << "<tr><td>" << j.spec.index << "</td><td>" << j.spec.seed << "</td><td style=\"text-align:left\">"
         << escape(j.spec.point_label()) << "</td><td class=\"" << (j.ok() ? "pass" : "fail") << "\">"
         << escape(to_string(j.status)) << "</td><td>" << (j.seconds > 0 ? fmt::format("{:.1f}", j.seconds) : "") << "</td>"
         << "<td style=\"text-align:left\">" << escape(j.error) << "</td></tr>\n";
  }
  html << "</table>\n";
}

// What a failing assertion's checks say: the first few that fail, with their two sides.
std::string failing_checks(const nlohmann::json& a) {
  std::string text;
  std::size_t shown = 0, failing = 0;
  for (const auto& c : a.value("checks", nlohmann::json::array())) {
    if (c.value("holds", true)) continue;
    if (++failing > 3) continue;
    ++shown;
    text += (text.empty() ? "" : "; ") + c.value("point", std::string()) +
            (c.contains("seed") ? " seed " + c.at("seed").dump() : std::string()) + ": " + c.value("lhs", std::string()) +
            " vs " + c.value("rhs", std::string());
  }
  if (failing > shown) text += fmt::format("; and {} more", failing - shown);
  return text;
}

void assertions_section(std::ostringstream& html, const fs::path& run_dir) {
  html << "<h2>Assertions</h2>\n";
  if (!fs::exists(run_dir / "asserts.json")) {
    html << "<p>Not evaluated yet (the run has not ended; <code>featurelab collect</code> evaluates them).</p>\n";
    return;
  }
  const auto asserts = nlohmann::json::parse(read(run_dir / "asserts.json"));
  if (asserts.empty()) {
    html << "<p>None.</p>\n";
    return;
  }
  html << "<table><tr><th>verdict</th><th>expect</th><th>at</th><th>over</th><th>controls</th><th>note</th></tr>\n";
  for (const auto& a : asserts) {
    const bool holds = a.value("holds", false);
    // Where it fails (the checks' two sides), what is missing, and the warnings ("holds at initialisation", "no control").
    std::string note = holds ? std::string() : failing_checks(a);
    if (const std::string missing = a.value("missing", ""); !missing.empty()) note += (note.empty() ? "" : "; ") + missing;
    for (const auto& w : a.value("warnings", nlohmann::json::array())) note += (note.empty() ? "" : "; ") + w.get<std::string>();
    std::string controls;
    for (const auto& c : a.value("controls", nlohmann::json::array())) {
      controls += (controls.empty() ? "" : "; ") + c.value("control", "") + (c.value("fails_there", false) ? " (fails there)" : " (HOLDS there)");
    }
    html << "<tr><td class=\"" << (holds ? "pass\">PASS" : "fail\">FAIL") << "</td><td style=\"text-align:left\">"
         << escape(a.value("expect", "")) << "</td><td>" << escape(a.value("at", "")) << "</td><td>"
         << escape(a.value("over", "")) << "</td><td>" << escape(controls) << "</td><td style=\"text-align:left\">"
         << escape(note) << "</td></tr>\n";
  }
  html << "</table>\n";
}

void summary_section(std::ostringstream& html, const fs::path& run_dir) {
  html << "<h2>Summary (final values over seeds)</h2>\n";
  std::ifstream csv(run_dir / "summary.csv");
  if (!csv) {
    html << "<p>No summary.csv yet (the run has not ended).</p>\n";
    return;
  }
  html << "<table>\n";
  std::string line;
  for (bool header = true; std::getline(csv, line); header = false) {
    html << "<tr>";
    for (const auto& c : csv_cells(line)) html << cell(c, header);
    html << "</tr>\n";
  }
  html << "</table>\n";
}

// The sweep: its axes, the --set overrides the run was made with, and per sweep point the settings in which its jobs'
// configuration differs from the first point's (config.toml is the first point's).
void configuration_section(std::ostringstream& html, const fs::path& run_dir, const nlohmann::json& run, const StoredRun& stored) {
  html << "<h2>Configuration</h2>\n";
  const auto overrides = run.value("overrides", nlohmann::json::array());
  if (!overrides.empty()) {
    html << "<p>Overrides (<code>--set</code>):</p><ul>";
    for (const auto& o : overrides) html << "<li><code>" << escape(o.get<std::string>()) << "</code></li>";
    html << "</ul>\n";
  }
  if (!stored.axes.empty()) {
    html << "<p>Sweep axes:</p><ul>";
    for (const auto& axis : stored.axes) {
      std::string values;
      for (const auto& v : axis.values) values += (values.empty() ? "" : ", ") + plain(v);
      html << "<li><code>" << escape(axis.key) << "</code>: " << escape(values) << "</li>";
    }
    html << "</ul>\n";
    std::map<std::size_t, fs::path> point_config;
    for (const auto& spec : stored.jobs) point_config.emplace(spec.point, run_dir / "jobs" / spec.dir / "config.toml");
    std::map<std::string, std::string> first;
    html << "<table><tr><th>point</th><th style=\"text-align:left\">settings that differ from point 0's</th></tr>\n";
    for (const auto& [point, file] : point_config) {
      std::string differs;
      try {
        const auto keys = configuration_keys(file);
        if (first.empty()) first = keys;
        for (const auto& [key, value] : keys) {
          const auto there = first.find(key);
          if (there == first.end() || there->second != value) differs += (differs.empty() ? "" : ", ") + key + " = " + value;
        }
        for (const auto& [key, value] : first) {
          if (!keys.count(key)) differs += (differs.empty() ? "" : ", ") + key + " (absent)";
        }
      } catch (const Error& e) {
        differs = e.what();
      }
      html << "<tr><td>" << point << "</td><td style=\"text-align:left\"><code>" << escape(point == point_config.begin()->first ? "(config.toml below)" : differs)
           << "</code></td></tr>\n";
    }
    html << "</table>\n";
  }
  html << "<p>The operative configuration (every parameter used, defaults included) of the first sweep point; each job's own "
          "is <code>jobs/NNNN-ID/config.toml</code>:</p>\n<pre>"
       << escape(read(run_dir / "config.toml")) << "</pre>\n";
}

// The page's head and its style.
void page_head(std::ostringstream& html, const std::string& title) {
  html << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" << escape(title)
       << "</title>\n<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}"
          "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
          ".pass{color:#070}.fail{color:#b00;font-weight:bold}pre{background:#f6f6f6;padding:1em;overflow:auto}"
          "img{max-width:100%}</style></head><body>\n";
}

// The figures, linked relative to the page (under `prefix`), or why there are none.
void plots_section(std::ostringstream& html, const std::vector<fs::path>& plots, const std::string& note, const std::string& prefix) {
  html << "<h2>Plots</h2>\n";
  if (!note.empty()) html << "<p>" << escape(note) << "</p>\n";
  for (const auto& p : plots) {
    if (p.extension() != ".png") continue;
    html << "<figure><img src=\"" << escape(prefix + p.filename().string()) << "\"><figcaption>" << escape(p.stem().string())
         << "</figcaption></figure>\n";
  }
}

// One run's sections; its plots come before its configuration when it is the page's only run.
void run_sections(std::ostringstream& html, const fs::path& run_dir, const std::vector<fs::path>* plots, const std::string& note,
                  int level) {
  const StoredRun stored = read_run_record(run_dir);
  std::vector<JobRecord> jobs;
  for (const auto& spec : stored.jobs) jobs.push_back(load_job(run_dir / "jobs" / spec.dir, spec));
  const auto run = nlohmann::json::parse(read(run_dir / "run.json"));
  html << "<h" << level << ">" << escape(run.value("name", "run")) << "</h" << level << ">\n<p>" << escape(run_dir.string()) << ": "
       << escape(run.value("pipeline", "")) << ", " << jobs.size() << " job(s)</p>\n";
  jobs_section(html, jobs);
  assertions_section(html, run_dir);
  summary_section(html, run_dir);
  if (plots) plots_section(html, *plots, note, "plots/");
  configuration_section(html, run_dir, run, stored);
  html << "<h2>Pipeline as written</h2>\n<p>Before the overrides above.</p>\n<pre>" << escape(read(run_dir / "pipeline.toml")) << "</pre>\n";
  html << "<h2>Manifest</h2>\n<pre>" << escape(read(run_dir / "manifest.json")) << "</pre>\n";
}

void require_run(const fs::path& run_dir) {
  if (!fs::exists(run_dir / "run.json")) throw Error(run_dir.string() + ": not a featurelab run directory (no run.json)");
}

}  // namespace

fs::path write_report(const fs::path& run_dir) {
  require_run(run_dir);
  std::string plot_note;
  std::vector<fs::path> plots;
  try {
    plots = plot_run(run_dir, PlotRequest{});
  } catch (const Error& e) {
    plot_note = e.what();
  }
  std::ostringstream html;
  page_head(html, nlohmann::json::parse(read(run_dir / "run.json")).value("name", "run"));
  run_sections(html, run_dir, &plots, plot_note, 1);
  html << "</body></html>\n";
  const fs::path file = run_dir / "report.html";
  std::ofstream(file) << html.str();
  return file;
}

fs::path write_report(const std::vector<fs::path>& run_dirs, const fs::path& out_dir) {
  if (run_dirs.size() == 1) return write_report(run_dirs.front());
  for (const auto& dir : run_dirs) require_run(dir);
  std::string plot_note;
  std::vector<fs::path> plots;
  try {
    plots = plot_runs(run_dirs, PlotRequest{}, out_dir / "plots");
  } catch (const Error& e) {
    plot_note = e.what();
  }
  std::ostringstream html;
  page_head(html, std::to_string(run_dirs.size()) + " runs");
  html << "<h1>" << run_dirs.size() << " runs</h1>\n<ul>";
  for (const auto& dir : run_dirs) html << "<li>" << escape(dir.string()) << "</li>";
  html << "</ul>\n";
  plots_section(html, plots, plot_note, "plots/");
  // Each run against the first, key by key (featurelab diff).
  html << "<h2>Differences from the first run</h2>\n";
  for (std::size_t r = 1; r < run_dirs.size(); ++r) {
    try {
      const ConfigComparison c = compare_configurations(run_dirs.front(), run_dirs[r]);
      html << "<p>" << escape(c.left) << " → " << escape(c.right) << ": " << c.differences.size() << " of " << c.keys
           << " keys differ</p>\n<table><tr><th>key</th><th>first</th><th>this</th></tr>\n";
      for (const auto& d : c.differences) {
        html << "<tr><td style=\"text-align:left\">" << escape(d.key) << "</td><td>" << escape(d.left.value_or("(absent)"))
             << "</td><td>" << escape(d.right.value_or("(absent)")) << "</td></tr>\n";
      }
      html << "</table>\n";
    } catch (const Error& e) {
      html << "<p>" << escape(e.what()) << "</p>\n";
    }
  }
  for (const auto& dir : run_dirs) run_sections(html, dir, nullptr, "", 1);
  html << "</body></html>\n";
  fs::create_directories(out_dir);
  const fs::path file = out_dir / "report.html";
  std::ofstream(file) << html.str();
  return file;
}

}  // namespace featurelab
