#include "kernel/job/search_space.hpp"

#include "kernel/config/pipeline_source.hpp"

#include <featurelab/rng.hpp>

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <map>
#include <set>

namespace featurelab {

namespace {

constexpr const char* kForms = "{ uniform = [a, b] }, { log-uniform = [a, b] } (0 < a < b), { int = [a, b] } or { choice = [v1, v2, …] }";

// One key's distribution.
struct Dimension {
  std::string key;
  std::string kind;                 // uniform, log-uniform, int, choice
  double lo = 0, hi = 0;            // uniform, log-uniform, int
  std::vector<std::string> choices; // choice: the values' TOML text
  std::string where;
};

// A real value as TOML reads a float back to the same double: shortest form, always with a '.' or an exponent.
std::string real_text(double x) {
  std::string text = fmt::format("{}", x);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::optional<Dimension> dimension(const std::string& key, const toml::node& node, std::vector<Diagnostic>& errors) {
  const auto fail = [&](const std::string& message) {
    errors.push_back({where(node), "search." + key + ": " + message});
    return std::nullopt;
  };
  const auto* spec = node.as_table();
  if (!spec || spec->size() != 1) return fail(std::string("expected one of ") + kForms);
  Dimension d;
  d.key = key;
  d.kind = std::string(spec->begin()->first.str());
  d.where = where(node);
  const auto* values = spec->begin()->second.as_array();
  if (d.kind != "uniform" && d.kind != "log-uniform" && d.kind != "int" && d.kind != "choice") {
    return fail("'" + d.kind + "' is not a distribution of the search; write " + kForms);
  }
  if (!values || values->empty()) return fail(d.kind + ": expected a list" + (d.kind == "choice" ? " of values" : " [a, b]"));
  if (d.kind == "choice") {
    std::set<std::string> seen;
    for (const auto& v : *values) {
      d.choices.push_back(toml_text(v));
      if (!seen.insert(d.choices.back()).second) return fail("choice: " + d.choices.back() + " is listed twice");
    }
    return d;
  }
  const bool integers = d.kind == "int";
  if (values->size() != 2) return fail(d.kind + ": expected two bounds [a, b]");
  for (int i = 0; i < 2; ++i) {
    const auto& v = *values->get(static_cast<std::size_t>(i));
    if (integers ? !v.is_integer() : !(v.is_integer() || v.is_floating_point())) {
      return fail(d.kind + ": expected " + (integers ? "integers" : "numbers") + " [a, b], got " + toml_text(v));
    }
    (i == 0 ? d.lo : d.hi) = v.value<double>().value_or(0);
  }
  if (!(d.lo < d.hi) && !(integers && d.lo == d.hi)) return fail(d.kind + ": expected a < b, got [" + real_text(d.lo) + ", " + real_text(d.hi) + "]");
  if (d.kind == "log-uniform" && !(d.lo > 0)) return fail("log-uniform: expected 0 < a, got a = " + real_text(d.lo));
  return d;
}

// Keys as [sweep] takes them: quoted dotted keys, or nested tables whose leaves are distributions.
void dimensions(const toml::table& table, const std::string& prefix, std::vector<Dimension>& out, std::vector<Diagnostic>& errors) {
  for (auto&& [name, node] : table) {
    const std::string key = prefix.empty() ? std::string(name.str()) : prefix + "." + std::string(name.str());
    if (prefix.empty() && (key == "budget" || key == "seed")) continue;
    const auto* nested = node.as_table();
    const bool spec = nested && nested->size() == 1 && nested->begin()->second.is_array();
    if (nested && !spec) {
      dimensions(*nested, key, out, errors);
      continue;
    }
    if (auto d = dimension(key, node, errors)) out.push_back(std::move(*d));
  }
}

std::string draw(const Dimension& d, Rng& rng) {
  const double u = rng.uniform();
  if (d.kind == "choice") return d.choices[std::min(d.choices.size() - 1, static_cast<std::size_t>(u * double(d.choices.size())))];
  if (d.kind == "int") {
    const double count = d.hi - d.lo + 1;
    return std::to_string(static_cast<std::int64_t>(d.lo + std::min(count - 1, std::floor(u * count))));
  }
  if (d.kind == "log-uniform") return real_text(std::exp(std::log(d.lo) + u * (std::log(d.hi) - std::log(d.lo))));
  return real_text(d.lo + u * (d.hi - d.lo));
}

std::optional<std::int64_t> integer_key(const toml::table& table, const char* key, std::int64_t fallback, std::int64_t least,
                                        std::vector<Diagnostic>& errors) {
  const toml::node* node = table.get(key);
  if (!node) return fallback;
  const auto* i = node->as_integer();
  if (!i || i->get() < least) {
    errors.push_back({where(*node), std::string("search.") + key + ": expected an integer >= " + std::to_string(least)});
    return std::nullopt;
  }
  return i->get();
}

}  // namespace

std::vector<SweepAxis> plan_search(const toml::table& search, std::vector<Diagnostic>& errors) {
  const std::size_t before = errors.size();
  const auto budget = integer_key(search, "budget", 0, 1, errors);
  const auto seed = integer_key(search, "seed", 0, 0, errors);
  if (budget && !search.get("budget")) {
    errors.push_back({where(search), "search: no budget; write budget = N, the number of points to draw"});
  }
  std::vector<Dimension> space;
  dimensions(search, "", space, errors);
  if (space.empty() && errors.size() == before) {
    errors.push_back({where(search), std::string("search: no key to search; write \"section.key\" = ") + kForms});
  }
  if (errors.size() != before) return {};
  // Points drawn in order, a point already drawn drawn again: the same seed gives the same points, and a space
  // smaller than the budget is refused rather than run twice.
  Rng rng(static_cast<std::uint64_t>(*seed));
  std::set<std::vector<std::string>> drawn;
  std::vector<SweepAxis> axes(space.size());
  for (std::size_t k = 0; k < space.size(); ++k) {
    axes[k].key = space[k].key;
    axes[k].where = space[k].where;
    axes[k].zipped = true;
  }
  const auto wanted = static_cast<std::size_t>(*budget);
  for (std::size_t attempt = 0; drawn.size() < wanted && attempt < 100 * wanted; ++attempt) {
    std::vector<std::string> point;
    for (const auto& d : space) point.push_back(draw(d, rng));
    if (!drawn.insert(point).second) continue;
    for (std::size_t k = 0; k < space.size(); ++k) {
      axes[k].values.push_back(point[k]);
      axes[k].overrides.push_back({space[k].key + "=" + point[k]});
      axes[k].locations.push_back({space[k].where});
    }
  }
  if (drawn.size() < wanted) {
    errors.push_back({where(search), fmt::format("search: {} draws found {} distinct points of the budget's {}; the space "
                                                 "holds fewer: lower budget, or widen a range or a choice",
                                                 100 * wanted, drawn.size(), wanted)});
    return {};
  }
  return axes;
}

}  // namespace featurelab
