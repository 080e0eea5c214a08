// featurelab/core/config_diff.hpp: each side read into dotted keys and the TOML text of their values, then the
// keys of both compared in order.
#include <featurelab/core/config_diff.hpp>

#include "results/run_records.hpp"

#include <featurelab/error.hpp>

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <sstream>

namespace featurelab {

namespace {

using Flat = std::map<std::string, std::string>;

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// A value as TOML writes it, floats in their shortest exact form (0.1, not the 0.10000000000000001 that
// config.toml holds).
std::string value_text(const toml::node& node) {
  if (const auto* f = node.as_floating_point()) {
    std::array<char, 32> buffer{};
    const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), f->get());
    std::string text(buffer.data(), error == std::errc() ? end : buffer.data());
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // 1.0 stays a float ("n": nan, inf)
    return text;
  }
  if (const auto* s = node.as_string()) return quoted(s->get());
  if (const auto* a = node.as_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < a->size(); ++i) out += (i ? ", " : "") + value_text(*a->get(i));
    return out + "]";
  }
  if (const auto* t = node.as_table()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, value] : *t) {
      out += (first ? "" : ", ") + std::string(key.str()) + " = " + value_text(value);
      first = false;
    }
    return out + "}";
  }
  std::ostringstream os;  // integers, booleans, dates and times
  node.visit([&](const auto& v) { os << v; });
  return os.str();
}

bool is_array_of_tables(const toml::array& a) {
  return !a.empty() && std::all_of(a.begin(), a.end(), [](const toml::node& n) { return n.is_table(); });
}

void flatten(const toml::table& table, const std::string& prefix, Flat& out) {
  for (const auto& [key, value] : table) {
    const std::string name = prefix + std::string(key.str());
    if (const auto* t = value.as_table(); t && !t->is_inline()) {
      flatten(*t, name + ".", out);
    } else if (const auto* a = value.as_array(); a && is_array_of_tables(*a)) {
      for (std::size_t i = 0; i < a->size(); ++i) flatten(*a->get(i)->as_table(), name + "." + std::to_string(i) + ".", out);
    } else {
      out[name] = value_text(value);
    }
  }
}

void read_toml(const std::filesystem::path& file, Flat& out) {
  try {
    flatten(toml::parse_file(file.string()), "", out);
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    throw Error(file.string() + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
                std::string(e.description()) + " (not an operative configuration featurelab wrote?)");
  }
}

// One side: what it is, and its keys.
std::string read_side(const std::filesystem::path& path, Flat& out) {
  namespace fs = std::filesystem;
  if (fs::is_directory(path)) {
    if (fs::exists(path / "run.json")) {
      const StoredRun run = read_run_record(path);
      read_toml(path / "config.toml", out);
      for (const SweepAxis& axis : run.axes) {
        std::string values = "[";
        for (std::size_t i = 0; i < axis.values.size(); ++i) values += (i ? ", " : "") + axis.values[i];
        out["[sweep] " + axis.key] = values + "]";
      }
      return "run " + path.string() + " (" + std::to_string(run.jobs.size()) + " jobs)";
    }
    if (fs::exists(path / "config.toml")) {
      read_toml(path / "config.toml", out);
      return "job " + path.string();
    }
    throw Error(path.string() + " is a directory without run.json or config.toml: give a run directory (featurelab run "
                "--out), one of its jobs (RUN/jobs/NNNN-…) or a TOML file");
  }
  if (!fs::exists(path)) {
    throw Error(path.string() + " does not exist: give a run directory, one of its jobs (RUN/jobs/NNNN-…) or a TOML file");
  }
  read_toml(path, out);
  return "file " + path.string();
}

}  // namespace

ConfigComparison compare_configurations(const std::filesystem::path& left, const std::filesystem::path& right) {
  ConfigComparison c;
  Flat a, b;
  c.left = read_side(left, a);
  c.right = read_side(right, b);
  auto i = a.begin();
  auto j = b.begin();
  const auto differ = [&](std::string key, std::optional<std::string> l, std::optional<std::string> r) {
    c.differences.push_back({std::move(key), std::move(l), std::move(r)});
  };
  while (i != a.end() || j != b.end()) {
    ++c.keys;
    if (j == b.end() || (i != a.end() && i->first < j->first)) {
      differ(i->first, i->second, std::nullopt);
      ++i;
    } else if (i == a.end() || j->first < i->first) {
      differ(j->first, std::nullopt, j->second);
      ++j;
    } else {
      if (i->second != j->second) differ(i->first, i->second, j->second);
      ++i;
      ++j;
    }
  }
  return c;
}

}  // namespace featurelab
