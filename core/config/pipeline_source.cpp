// TOML loading, base composition and --set overrides.
#include "config/pipeline_source.hpp"

#include "io/bounded_read.hpp"

#include <featurelab/error.hpp>

#include <set>
#include <sstream>

namespace featurelab {

namespace fs = std::filesystem;

std::string where(const toml::node& node) {
  const auto& src = node.source();
  if (!src.path) return {};
  std::string out = *src.path;
  // An override's value was parsed from "v = <value>": its own line and column mean nothing.
  if (out.rfind("--set", 0) == 0 || out.rfind("[sweep]", 0) == 0 || out.find(" ([sweep] ") != std::string::npos) {
    return out;
  }
  if (src.begin.line > 0) out += ":" + std::to_string(src.begin.line) + ":" + std::to_string(src.begin.column);
  return out;
}

namespace {

void merge_into(toml::table& dst, toml::table&& src) {
  for (auto&& [key, value] : src) {
    toml::node* existing = dst.get(key.str());
    if (existing && existing->is_table() && value.is_table()) {
      merge_into(*existing->as_table(), std::move(*value.as_table()));
    } else {
      dst.insert_or_assign(key.str(), std::move(value));
    }
  }
}

// referenced_at: where a base file is named ("file:line:col"), so that a problem with it points at
// the line that names it; "" for the pipeline file itself.
toml::table parse_file(const fs::path& file, const std::string& referenced_at, std::string* text_out,
                       std::vector<Diagnostic>& errors) {
  std::string text;
  try {
    text = read_bounded_file(file, kMaxPipelineFileBytes);
  } catch (const Error& e) {
    if (referenced_at.empty()) {
      errors.push_back({file.string(), e.what()});
    } else {
      errors.push_back({referenced_at, "experiment.base: " + file.string() + ": " + e.what()});
    }
    return {};
  }
  if (text_out) *text_out = text;
  // Debian's toml++ is built with exceptions: a syntax error arrives as toml::parse_error.
  try {
    return toml::parse(text, file.string());
  } catch (const toml::parse_error& err) {
    errors.push_back({file.string() + ":" + std::to_string(err.source().begin.line) + ":" +
                          std::to_string(err.source().begin.column),
                      "TOML syntax error: " + std::string(err.description())});
    return {};
  }
}

toml::table load_with_bases(const fs::path& file, const std::string& referenced_at, std::set<fs::path>& stack,
                            std::string* text_out, std::vector<Diagnostic>& errors) {
  const fs::path canonical = fs::weakly_canonical(file);
  if (stack.count(canonical)) {
    errors.push_back({file.string(), "base files include each other in a cycle"});
    return {};
  }
  stack.insert(canonical);
  toml::table own = parse_file(file, referenced_at, text_out, errors);
  toml::table merged;
  if (auto* experiment = own["experiment"].as_table()) {
    if (toml::node* base = experiment->get("base")) {
      std::vector<std::string> bases;
      if (auto* s = base->as_string()) {
        bases.push_back(s->get());
      } else if (auto* arr = base->as_array()) {
        for (auto& item : *arr) {
          if (auto* str = item.as_string()) {
            bases.push_back(str->get());
          } else {
            errors.push_back({where(item), "experiment.base: expected file names (strings)"});
          }
        }
      } else {
        errors.push_back({where(*base), "experiment.base: expected a list of file names, e.g. base = [\"common.toml\"]"});
      }
      for (const auto& b : bases) {
        const fs::path base_file = fs::path(b).is_absolute() ? fs::path(b) : file.parent_path() / b;
        if (!fs::exists(base_file)) {
          errors.push_back({where(*base), "experiment.base: no file " + base_file.string()});
          continue;
        }
        merge_into(merged, load_with_bases(base_file, where(*base), stack, nullptr, errors));
      }
      experiment->erase("base");
    }
  }
  merge_into(merged, std::move(own));
  stack.erase(canonical);
  return merged;
}

toml::node* descend(toml::node* node, const std::string& part) {
  if (!node) return nullptr;
  if (auto* table = node->as_table()) return table->get(part);
  if (auto* array = node->as_array()) {
    // Digits only, and no more of them than an index of this array can have: std::stoul would
    // throw std::out_of_range on "assert.1111…" (found by fuzz-set-override).
    if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string::npos) return nullptr;
    const auto index = std::stoul(part);
    return index < array->size() ? array->get(index) : nullptr;
  }
  return nullptr;
}

}  // namespace

void apply_override(toml::table& table, const std::string& assignment, std::vector<Diagnostic>& errors,
                    const std::string& origin, const std::string& located_at) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    errors.push_back({origin + " " + assignment, "expected KEY=VALUE, e.g. --set model.width=200"});
    return;
  }
  const std::string key = assignment.substr(0, eq);
  const std::string value_text = assignment.substr(eq + 1);
  const std::string source = located_at.empty() ? origin + " " + key : located_at + " (" + origin + " " + key + ")";
  std::vector<std::string> parts;
  {
    std::istringstream in(key);
    std::string part;
    while (std::getline(in, part, '.')) parts.push_back(part);
  }
  for (const auto& part : parts) {
    if (part.empty()) {
      errors.push_back({origin + " " + key, "empty part in the dotted key"});
      return;
    }
  }
  // The value: TOML if it parses as one (numbers, booleans, arrays, quoted strings), else text.
  toml::table holder;
  try {
    holder = toml::parse("v = " + value_text, source);
  } catch (const toml::parse_error&) {
    holder = toml::table{};
  }
  if (!holder.get("v") || holder.size() != 1) {
    // Not a TOML value: take it as text, parsed as a TOML string so that it keeps its origin.
    std::string quoted = "\"";
    for (char c : value_text) {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    try {
      holder = toml::parse("v = " + quoted + "\"", source);
    } catch (const toml::parse_error&) {
      holder = toml::table{};
      holder.insert_or_assign("v", value_text);
    }
  }
  toml::node* parent = &table;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    // The rest of the key written whole in this table ([sweep]'s "model.width" = [...]): set it.
    if (auto* t = parent->as_table()) {
      std::string rest = parts[i];
      for (std::size_t j = i + 1; j < parts.size(); ++j) rest += "." + parts[j];
      if (t->contains(rest)) {
        t->insert_or_assign(rest, std::move(*holder.get("v")));
        return;
      }
    }
    toml::node* next = descend(parent, parts[i]);
    const bool index_next = parts[i + 1].find_first_not_of("0123456789") == std::string::npos;
    if (!next && index_next) {
      errors.push_back({origin + " " + key, "no [[" + parts[i] + "]] entries to index; add the block to the pipeline first"});
      return;
    }
    if (!next) {
      if (auto* t = parent->as_table()) {
        t->insert_or_assign(parts[i], toml::table{});
        next = t->get(parts[i]);
      } else if (auto* a = parent->as_array()) {
        errors.push_back({origin + " " + key, "no entry " + parts[i] + ": that list has " + std::to_string(a->size()) +
                                              " entries (indices start at 0)"});
        return;
      }
    }
    if (!next || (!next->is_table() && !next->is_array())) {
      errors.push_back({origin + " " + key, "'" + parts[i] + "' is not a table or a list"});
      return;
    }
    parent = next;
  }
  toml::node* value = holder.get("v");
  if (auto* t = parent->as_table()) {
    t->insert_or_assign(parts.back(), std::move(*value));
  } else if (auto* a = parent->as_array()) {
    errors.push_back({origin + " " + key, "cannot replace a whole list entry; set one of its keys"});
    (void)a;
  }
}

PipelineSource load_pipeline(const fs::path& file, const std::vector<std::string>& overrides,
                             const std::vector<std::string>& sweep_assignments,
                             const std::vector<std::string>& sweep_locations) {
  std::vector<Diagnostic> errors;
  PipelineSource source;
  source.file = file;
  if (!fs::exists(file)) throw ConfigError({{file.string(), "no such pipeline file"}});
  std::set<fs::path> stack;
  source.table = load_with_bases(file, "", stack, &source.text, errors);
  for (const auto& o : overrides) {
    apply_override(source.table, o, errors);
  }
  for (std::size_t i = 0; i < sweep_assignments.size(); ++i) {
    apply_override(source.table, sweep_assignments[i], errors, "[sweep]",
                   i < sweep_locations.size() ? sweep_locations[i] : std::string());
  }
  if (!errors.empty()) throw ConfigError(errors);
  return source;
}

}  // namespace featurelab
