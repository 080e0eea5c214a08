// Parameter schemas: constraint checks and the wording of what a parameter expects.
#include <featurelab/error.hpp>
#include <featurelab/params.hpp>

#include <cmath>
#include <sstream>

namespace featurelab {

const char* to_string(ParamType type) {
  switch (type) {
    case ParamType::Bool: return "bool";
    case ParamType::Int: return "int";
    case ParamType::Real: return "real";
    case ParamType::String: return "string";
    case ParamType::IntList: return "int list";
    case ParamType::RealList: return "real list";
    case ParamType::StringList: return "string list";
    case ParamType::Components: return "components";
  }
  return "?";
}

namespace {

std::string format_number(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::ostringstream out;
  out.precision(12);
  out << x;
  std::string text = out.str();
  return text;
}

std::string format_real(double x) {
  std::string text = format_number(x);
  // Keep reals recognisable as reals in TOML: 1 -> 1.0.
  if (std::isfinite(x) && text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

template <class T, class F>
std::string format_list(const std::vector<T>& items, F format) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += format(items[i]);
  }
  return out + "]";
}

}  // namespace

std::string format_value(const Value& value) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const { return format_real(d); }
    std::string operator()(const std::string& s) const { return quote(s); }
    std::string operator()(const std::vector<std::int64_t>& v) const {
      return format_list(v, [](std::int64_t i) { return std::to_string(i); });
    }
    std::string operator()(const std::vector<double>& v) const { return format_list(v, format_real); }
    std::string operator()(const std::vector<std::string>& v) const { return format_list(v, quote); }
    // An inline table per entry, as TOML writes a list of them: [{ use = "std:linear", out = 100 }].
    std::string operator()(const ComponentList& v) const {
      return format_list(v, [](const ComponentSpec& c) {
        std::string out = "{ use = " + quote(c.use);
        if (!c.name.empty()) out += ", name = " + quote(c.name);
        if (!c.block_names.empty()) out += ", blocks = " + format_list(c.block_names, quote);
        for (const auto& [key, entry] : c.params.values()) out += ", " + key + " = " + format_value(entry);
        return out + " }";
      });
    }
  };
  return std::visit(Visitor{}, value);
}

bool is_auto(const Value& value) {
  const auto* text = std::get_if<std::string>(&value);
  return text && *text == kAuto;
}

ParamType type_of(const Value& value) {
  switch (value.index()) {
    case 0: return ParamType::Bool;
    case 1: return ParamType::Int;
    case 2: return ParamType::Real;
    case 3: return ParamType::String;
    case 4: return ParamType::IntList;
    case 5: return ParamType::RealList;
    case 6: return ParamType::StringList;
    default: return ParamType::Components;
  }
}

std::string ParamSpec::expectation() const {
  std::string noun;
  switch (type) {
    case ParamType::Bool: return "true or false";
    case ParamType::Int: noun = "an integer"; break;
    case ParamType::Real: noun = "a number"; break;
    case ParamType::IntList: noun = "a list of integers"; break;
    case ParamType::Components: return "a list of tables, each with use = \"<name>\" and its parameters";
    case ParamType::RealList: noun = "a list of numbers"; break;
    case ParamType::String:
    case ParamType::StringList: {
      std::string base = type == ParamType::String ? "a string" : "a list of strings";
      if (choices.empty()) return base;
      std::string out = type == ParamType::String ? "one of " : "a list of ";
      for (std::size_t i = 0; i < choices.size(); ++i) out += (i ? ", " : "") + choices[i];
      return out;
    }
  }
  const bool has_lower = std::isfinite(lower);
  const bool has_upper = std::isfinite(upper);
  if (has_lower && has_upper) {
    noun += std::string(" in ") + (lower_open ? "(" : "[") + format_number(lower) + ", " +
            format_number(upper) + (upper_open ? ")" : "]");
  } else if (has_lower) {
    noun += std::string(lower_open ? " > " : " >= ") + format_number(lower);
  } else if (has_upper) {
    noun += std::string(upper_open ? " < " : " <= ") + format_number(upper);
  }
  if ((type == ParamType::IntList || type == ParamType::RealList) && (has_lower || has_upper)) {
    noun = "a list of numbers each" + noun.substr(noun.find(' ', 2));
  }
  if (min_length && *min_length > 0) noun += " (at least " + std::to_string(*min_length) + ")";
  if (automatic) noun += " or \"auto\"";
  return noun;
}

std::string ParamSpec::default_text() const {
  if (!default_value) return "(required)";
  if (automatic && is_auto(*default_value)) return "auto (" + *automatic + ")";
  return format_value(*default_value);
}

std::optional<std::string> ParamSpec::check(const Value& value) const {
  if (automatic && is_auto(value)) return std::nullopt;
  const ParamType got = type_of(value);
  const bool int_for_real = (type == ParamType::Real && got == ParamType::Int) ||
                            (type == ParamType::RealList && got == ParamType::IntList);
  if (got != type && !int_for_real) {
    return std::string("got ") + format_value(value) + " (" + to_string(got) + ")";
  }
  auto in_range = [this](double x) {
    if (std::isnan(x)) return false;
    if (lower_open ? !(x > lower) : !(x >= lower)) return false;
    if (upper_open ? !(x < upper) : !(x <= upper)) return false;
    return true;
  };
  auto bad_choice = [this](const std::string& s) {
    if (choices.empty()) return false;
    for (const auto& c : choices) {
      if (c == s) return false;
    }
    return true;
  };
  auto got_text = [&value] { return "got " + format_value(value); };
  switch (value.index()) {
    case 1:
      if (!in_range(static_cast<double>(std::get<std::int64_t>(value)))) return got_text();
      break;
    case 2:
      if (!in_range(std::get<double>(value))) return got_text();
      break;
    case 3:
      if (bad_choice(std::get<std::string>(value))) return got_text();
      break;
    case 4: {
      const auto& items = std::get<std::vector<std::int64_t>>(value);
      if (min_length && items.size() < *min_length) return got_text();
      for (auto x : items) {
        if (!in_range(static_cast<double>(x))) return got_text();
      }
      break;
    }
    case 5: {
      const auto& items = std::get<std::vector<double>>(value);
      if (min_length && items.size() < *min_length) return got_text();
      for (auto x : items) {
        if (!in_range(x)) return got_text();
      }
      break;
    }
    case 6: {
      const auto& items = std::get<std::vector<std::string>>(value);
      if (min_length && items.size() < *min_length) return got_text();
      for (const auto& s : items) {
        if (bad_choice(s)) return "got \"" + s + "\" in " + format_value(value);
      }
      break;
    }
    case 7: {
      const auto& items = std::get<ComponentList>(value);
      if (min_length && items.size() < *min_length) return "got " + std::to_string(items.size()) + " entries";
      break;
    }
    default: break;
  }
  return std::nullopt;
}

ParamSpec& Schema::add(ParamSpec spec) {
  for (auto& existing : specs_) {
    if (existing.name == spec.name) {
      existing = std::move(spec);
      return existing;
    }
  }
  specs_.push_back(std::move(spec));
  return specs_.back();
}

namespace {
ParamSpec make_spec(const std::string& name, ParamType type, Value fallback, const std::string& doc) {
  ParamSpec spec;
  spec.name = name;
  spec.type = type;
  spec.default_value = std::move(fallback);
  spec.doc = doc;
  return spec;
}
}  // namespace

ParamSpec& Schema::boolean(const std::string& name, bool fallback, const std::string& doc) {
  return add(make_spec(name, ParamType::Bool, fallback, doc));
}
ParamSpec& Schema::integer(const std::string& name, std::int64_t fallback, const std::string& doc) {
  return add(make_spec(name, ParamType::Int, fallback, doc));
}
ParamSpec& Schema::real(const std::string& name, double fallback, const std::string& doc) {
  return add(make_spec(name, ParamType::Real, fallback, doc));
}
ParamSpec& Schema::integer(const std::string& name, Automatic fallback, const std::string& doc) {
  ParamSpec& spec = add(make_spec(name, ParamType::Int, std::string(kAuto), doc));
  spec.automatic = std::move(fallback.means);
  return spec;
}
ParamSpec& Schema::real(const std::string& name, Automatic fallback, const std::string& doc) {
  ParamSpec& spec = add(make_spec(name, ParamType::Real, std::string(kAuto), doc));
  spec.automatic = std::move(fallback.means);
  return spec;
}
ParamSpec& Schema::string(const std::string& name, const std::string& fallback, const std::string& doc) {
  return add(make_spec(name, ParamType::String, fallback, doc));
}
ParamSpec& Schema::choice(const std::string& name, const std::string& fallback,
                          std::vector<std::string> choices, const std::string& doc) {
  ParamSpec& spec = add(make_spec(name, ParamType::String, fallback, doc));
  spec.choices = std::move(choices);
  return spec;
}
ParamSpec& Schema::integers(const std::string& name, std::vector<std::int64_t> fallback,
                            const std::string& doc) {
  return add(make_spec(name, ParamType::IntList, std::move(fallback), doc));
}
ParamSpec& Schema::reals(const std::string& name, std::vector<double> fallback, const std::string& doc) {
  return add(make_spec(name, ParamType::RealList, std::move(fallback), doc));
}
ParamSpec& Schema::strings(const std::string& name, std::vector<std::string> fallback,
                           const std::string& doc) {
  return add(make_spec(name, ParamType::StringList, std::move(fallback), doc));
}

ParamSpec& Schema::components_of(const std::string& name, KindNumber kind, const std::string& doc) {
  ParamSpec& spec = add(make_spec(name, ParamType::Components, ComponentList{}, doc));
  spec.component_kind = kind;
  return spec;
}

Schema& Schema::merge(const Schema& other) {
  for (const auto& spec : other.specs_) add(spec);
  if (other.other_keys_) other_keys_ = other.other_keys_;
  return *this;
}

Schema& Schema::other_keys(const std::string& doc) {
  other_keys_ = doc;
  return *this;
}

const ParamSpec* Schema::find(const std::string& name) const {
  for (const auto& spec : specs_) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const Value& Params::at(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    throw Error("parameter '" + name + "' is not in this component's schema (a plugin bug: "
                "declare it in the schema the component is registered with)");
  }
  return it->second;
}

namespace {
[[noreturn]] void wrong_type(const std::string& name, const Value& value, const char* wanted) {
  if (is_auto(value)) {
    throw Error("parameter '" + name + "' is \"auto\", read as " + wanted +
                " (a plugin bug: read an automatic key with integer_or_auto or real_or_auto)");
  }
  throw Error("parameter '" + name + "' holds " + format_value(value) + " (" +
              to_string(type_of(value)) + "), read as " + wanted +
              " (a plugin bug: read it with the type its schema declares)");
}
}  // namespace

bool Params::boolean(const std::string& name) const {
  const Value& v = at(name);
  if (auto p = std::get_if<bool>(&v)) return *p;
  wrong_type(name, v, "bool");
}
std::int64_t Params::integer(const std::string& name) const {
  const Value& v = at(name);
  if (auto p = std::get_if<std::int64_t>(&v)) return *p;
  wrong_type(name, v, "int");
}
double Params::real(const std::string& name) const {
  const Value& v = at(name);
  if (auto p = std::get_if<double>(&v)) return *p;
  if (auto p = std::get_if<std::int64_t>(&v)) return static_cast<double>(*p);
  wrong_type(name, v, "real");
}
const std::string& Params::str(const std::string& name) const {
  const Value& v = at(name);
  if (auto p = std::get_if<std::string>(&v)) return *p;
  wrong_type(name, v, "string");
}
const std::vector<std::int64_t>& Params::integers(const std::string& name) const {
  const Value& v = at(name);
  if (auto p = std::get_if<std::vector<std::int64_t>>(&v)) return *p;
  wrong_type(name, v, "int list");
}
std::vector<double> Params::reals(const std::string& name) const {
  const Value& v = at(name);
  if (auto p = std::get_if<std::vector<double>>(&v)) return *p;
  if (auto p = std::get_if<std::vector<std::int64_t>>(&v)) return {p->begin(), p->end()};
  wrong_type(name, v, "real list");
}
const std::vector<std::string>& Params::strings(const std::string& name) const {
  const Value& v = at(name);
  if (auto p = std::get_if<std::vector<std::string>>(&v)) return *p;
  wrong_type(name, v, "string list");
}

const ComponentList& Params::components(const std::string& name) const {
  const Value& v = at(name);
  if (auto p = std::get_if<ComponentList>(&v)) return *p;
  wrong_type(name, v, "components");
}

std::optional<std::int64_t> Params::integer_or_auto(const std::string& name) const {
  if (is_auto(at(name))) return std::nullopt;
  return integer(name);
}
std::optional<double> Params::real_or_auto(const std::string& name) const {
  if (is_auto(at(name))) return std::nullopt;
  return real(name);
}

Params Params::defaults(const Schema& schema) {
  Params params;
  for (const auto& spec : schema.specs()) {
    if (spec.default_value) params.set(spec.name, *spec.default_value);
  }
  return params;
}

bool operator==(const Params& a, const Params& b) { return a.values() == b.values(); }

bool operator==(const ComponentSpec& a, const ComponentSpec& b) {
  return a.use == b.use && a.params == b.params && a.name == b.name && a.block_names == b.block_names &&
         a.path == b.path;
}

}  // namespace featurelab
