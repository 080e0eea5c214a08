// report.html: self-contained apart from the plot images it links under plots/.
#include <featurelab/core/html_report.hpp>

#include <featurelab/core/plot.hpp>

#include <featurelab/error.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
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

}  // namespace

fs::path write_report(const fs::path& run_dir) {
  if (!fs::exists(run_dir / "run.json")) throw Error(run_dir.string() + ": not a featurelab run directory (no run.json)");
  std::string plot_note;
  std::vector<fs::path> plots;
  try {
    plots = plot_run(run_dir, PlotRequest{});
  } catch (const Error& e) {
    plot_note = e.what();
  }
  const auto run = nlohmann::json::parse(read(run_dir / "run.json"));
  std::ostringstream html;
  html << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" << escape(run.value("name", "run"))
       << "</title>\n<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}"
          "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
          ".pass{color:#070}.fail{color:#b00;font-weight:bold}pre{background:#f6f6f6;padding:1em;overflow:auto}"
          "img{max-width:100%}</style></head><body>\n";
  html << "<h1>" << escape(run.value("name", "run")) << "</h1>\n<p>" << escape(run.value("pipeline", "")) << ", "
       << run.at("jobs").size() << " job(s)</p>\n";
  html << "<h2>Assertions</h2>\n";
  if (fs::exists(run_dir / "asserts.json")) {
    const auto asserts = nlohmann::json::parse(read(run_dir / "asserts.json"));
    if (asserts.empty()) html << "<p>None.</p>\n";
    html << "<table><tr><th>verdict</th><th>expect</th><th>at</th><th>over</th><th>controls</th><th>note</th></tr>\n";
    for (const auto& a : asserts) {
      const bool holds = a.value("holds", false);
      // Warnings ("holds at initialisation", "no control") beside what is missing.
      std::string note = a.value("missing", "");
      for (const auto& w : a.value("warnings", nlohmann::json::array())) note += (note.empty() ? "" : "; ") + w.get<std::string>();
      std::string controls;
      for (const auto& c : a.value("controls", nlohmann::json::array())) {
        controls += (controls.empty() ? "" : "; ") + c.value("control", "") + (c.value("fails_there", false) ? " (fails there)" : " (HOLDS there)");
      }
      html << "<tr><td class=\"" << (holds ? "pass\">PASS" : "fail\">FAIL") << "</td><td style=\"text-align:left\">"
           << escape(a.value("expect", "")) << "</td><td>" << escape(a.value("at", "")) << "</td><td>"
           << escape(a.value("over", "")) << "</td><td>" << escape(controls) << "</td><td>" << escape(note) << "</td></tr>\n";
    }
    html << "</table>\n";
  }
  html << "<h2>Summary (final values over seeds)</h2>\n<table>\n";
  {
    std::ifstream csv(run_dir / "summary.csv");
    std::string line;
    bool header = true;
    while (std::getline(csv, line)) {
      html << "<tr>";
      std::stringstream cells(line);
      std::string cell;
      while (std::getline(cells, cell, ',')) html << (header ? "<th>" : "<td>") << escape(cell) << (header ? "</th>" : "</td>");
      html << "</tr>\n";
      header = false;
    }
  }
  html << "</table>\n<h2>Plots</h2>\n";
  if (!plot_note.empty()) html << "<p>" << escape(plot_note) << "</p>\n";
  for (const auto& p : plots) {
    if (p.extension() != ".png") continue;
    html << "<figure><img src=\"plots/" << escape(p.filename().string()) << "\"><figcaption>"
         << escape(p.stem().string()) << "</figcaption></figure>\n";
  }
  html << "<h2>Configuration</h2>\n<pre>" << escape(read(run_dir / "config.toml")) << "</pre>\n";
  html << "<h2>Pipeline as written</h2>\n<pre>" << escape(read(run_dir / "pipeline.toml")) << "</pre>\n";
  html << "<h2>Manifest</h2>\n<pre>" << escape(read(run_dir / "manifest.json")) << "</pre>\n</body></html>\n";
  const fs::path file = run_dir / "report.html";
  std::ofstream(file) << html.str();
  return file;
}

}  // namespace featurelab
