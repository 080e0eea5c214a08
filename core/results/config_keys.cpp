// results/config_keys.hpp: toml++'s tree walked into dotted keys.
#include "results/config_keys.hpp"

#include <featurelab/error.hpp>

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <sstream>

namespace featurelab {

namespace {

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

void flatten(const toml::table& table, const std::string& prefix, std::map<std::string, std::string>& out) {
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

}  // namespace

std::map<std::string, std::string> configuration_keys(const std::filesystem::path& file) {
  std::map<std::string, std::string> out;
  try {
    flatten(toml::parse_file(file.string()), "", out);
  } catch (const toml::parse_error& e) {
    const auto& at = e.source().begin;
    throw Error(file.string() + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
                std::string(e.description()));
  }
  return out;
}

}  // namespace featurelab
