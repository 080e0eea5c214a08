// TOML loading, base composition and --set overrides.
#include "kernel/config/pipeline_source.hpp"

#include "kernel/io/bounded_read.hpp"

#include <featurelab/error.hpp>

#include <memory>
#include <set>
#include <type_traits>

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

// Moves a node out of its table (a move keeps its source region; a copy would not), so that it can
// be put back later.
std::unique_ptr<toml::node> take(toml::node& node) {
  return node.visit([](auto& v) -> std::unique_ptr<toml::node> {
    return std::make_unique<std::decay_t<decltype(v)>>(std::move(v));
  });
}

// The table at a path of keys and list indices from the root (as apply_override descended).
toml::table* table_at(toml::table& root, const std::vector<std::string>& path) {
  toml::node* node = &root;
  for (const auto& part : path) node = descend(node, part);
  return node ? node->as_table() : nullptr;
}

// apply_override's work; with undo, records what it changed there.
void apply(toml::table& table, const std::string& assignment, std::vector<Diagnostic>& errors,
           const std::string& origin, const std::string& located_at, OverrideUndo* undo) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    errors.push_back({origin + " " + assignment, "expected KEY=VALUE, e.g. --set model.width=200"});
    return;
  }
  const std::string key = assignment.substr(0, eq);
  const std::string value_text = assignment.substr(eq + 1);
  const std::string source = located_at.empty() ? origin + " " + key : located_at + " (" + origin + " " + key + ")";
  // The dotted key's parts, as TOML reads one: a part in double quotes may hold dots (sweep."model.width", the
  // way the [sweep] table writes its keys).
  std::vector<std::string> parts(1);
  bool in_quotes = false;
  for (const char c : key) {
    if (c == '"') {
      in_quotes = !in_quotes;
    } else if (c == '.' && !in_quotes) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  if (in_quotes) {
    errors.push_back({origin + " " + key, "unbalanced double quote in the dotted key; write sweep.\"model.width\"=[...] "
                                          "or sweep.model.width=[...]"});
    return;
  }
  for (const auto& part : parts) {
    if (part.empty()) {
      errors.push_back({origin + " " + key, "empty part in the dotted key"});
      return;
    }
  }
  if (key == "experiment.base") {
    // Bases are read and merged before any override applies: setting one here would change nothing.
    errors.push_back({origin + " " + key, "base files cannot be set from outside the file: they are read before any "
                                          "override applies; edit [experiment] base in the pipeline file"});
    return;
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
  // Sets key in t to the value, noting in undo what was there (unless a table created on the way
  // down is noted already: undoing removes it whole).
  std::vector<std::string> path;
  auto set = [&](toml::table& t, const std::string& k) {
    if (undo && !undo->applied) {
      undo->parent_path = path;
      undo->key = k;
      if (toml::node* previous = t.get(k)) undo->previous = take(*previous);
      undo->applied = true;
    }
    t.insert_or_assign(k, std::move(*holder.get("v")));
  };
  toml::node* parent = &table;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    // The rest of the key written whole in this table ([sweep]'s "model.width" = [...]): set it.
    if (auto* t = parent->as_table()) {
      std::string rest = parts[i];
      for (std::size_t j = i + 1; j < parts.size(); ++j) rest += "." + parts[j];
      if (t->contains(rest)) {
        set(*t, rest);
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
        if (undo && !undo->applied) {
          undo->parent_path = path;
          undo->key = parts[i];
          undo->applied = true;
        }
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
    path.push_back(parts[i]);
    parent = next;
  }
  if (auto* t = parent->as_table()) {
    set(*t, parts.back());
  } else {
    errors.push_back({origin + " " + key, "cannot replace a whole list entry; set one of its keys"});
  }
}

}  // namespace

void apply_override(toml::table& table, const std::string& assignment, std::vector<Diagnostic>& errors,
                    const std::string& origin, const std::string& located_at) {
  apply(table, assignment, errors, origin, located_at, nullptr);
}

SweepPointOverrides::SweepPointOverrides(toml::table& table, const std::vector<std::string>& assignments,
                                         const std::vector<std::string>& locations, std::vector<Diagnostic>& errors)
    : table_(table) {
  undo_.reserve(assignments.size());
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    undo_.emplace_back();
    apply(table, assignments[i], errors, "[sweep]", i < locations.size() ? locations[i] : std::string(), &undo_.back());
  }
}

SweepPointOverrides::~SweepPointOverrides() {
  // Last first: each step then finds the table as it was right after that assignment.
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    if (!it->applied) continue;
    toml::table* parent = table_at(table_, it->parent_path);
    if (!parent) continue;
    if (it->previous) {
      parent->insert_or_assign(it->key, std::move(*it->previous));
    } else {
      parent->erase(it->key);
    }
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
