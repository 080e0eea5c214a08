// Typed parameter schemas (what a component accepts) and validated parameter values.
//
// A component declares its schema once; the core validates every pipeline key against it before
// anything runs, fills defaults, and hands the component a Params holding exactly the schema's
// names with values of the declared types. Parameter documentation lives only here.
//
// A number the component can derive itself (a width from the theorem, a scale 1/√D) is declared
// with an automatic value instead of a sentinel such as 0: `s.real("init_scale", Automatic{"1/√D"},
// "...").above(0)`. The pipeline then writes `init_scale = "auto"` or leaves the key out, any number
// it writes is that number, and the component reads std::optional: params.real_or_auto("init_scale").
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace featurelab {

// Components: a list of sub-components of one kind, each a table of its own (a network's
// [[model.layer]] tables, a residual block's `layers = [{ use = "linear", out = 100 }, ...]`), each
// validated against its own schema by the core like a pipeline section.
enum class ParamType { Bool, Int, Real, String, IntList, RealList, StringList, Components };

const char* to_string(ParamType type);

struct ComponentSpec;
using ComponentList = std::vector<ComponentSpec>;

using Value = std::variant<bool, std::int64_t, double, std::string, std::vector<std::int64_t>,
                           std::vector<double>, std::vector<std::string>, ComponentList>;

// TOML-like rendering: 3, 0.5, "relu", [1, 2].
std::string format_value(const Value& value);
ParamType type_of(const Value& value);

// The value of an Int or Real key left to the component: "auto" in TOML and in Params.
inline constexpr const char* kAuto = "auto";
bool is_auto(const Value& value);

// The default of a key the component derives, and what it derives ("the theorem's 2^{2k−2}(p−1)").
struct Automatic {
  std::string means;
};

// The kind a Components parameter holds, as component.hpp's Kind (an int here, so that this header
// stays below component.hpp).
using KindNumber = int;

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::Real;
  std::optional<Value> default_value;  // absent: the key is required
  std::string doc;
  // Numeric bounds apply to Int/Real and to each element of IntList/RealList.
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool lower_open = false;
  bool upper_open = false;
  std::vector<std::string> choices;  // for String/StringList; empty = free text
  std::optional<std::size_t> min_length;  // for lists
  // Int/Real: the key also takes "auto", which means this ("1/√D"); the default is "auto" when
  // declared with Automatic, else a number.
  std::optional<std::string> automatic;
  // String: a file or directory named relative to the pipeline. The core resolves "" to the pipeline
  // file's directory and a relative path against it, so the component gets (and the run's config.toml
  // records) an absolute path, whatever directory the command runs in or later resumes from.
  bool pipeline_relative = false;
  // Components: the kind of every entry (static_cast<int>(Kind::Layer)).
  KindNumber component_kind = -1;

  ParamSpec& min(double value) { lower = value; lower_open = false; return *this; }
  ParamSpec& above(double value) { lower = value; lower_open = true; return *this; }
  ParamSpec& max(double value) { upper = value; upper_open = false; return *this; }
  ParamSpec& below(double value) { upper = value; upper_open = true; return *this; }
  ParamSpec& range(double lo, double hi) { return min(lo).max(hi); }
  ParamSpec& non_empty() { min_length = 1; return *this; }
  ParamSpec& required() { default_value.reset(); return *this; }
  // Also accept "auto" on a key whose default is a number.
  ParamSpec& or_auto(const std::string& means) { automatic = means; return *this; }
  ParamSpec& relative_to_pipeline() { pipeline_relative = true; return *this; }

  // "a number > 0", "an integer in [1, 100]", "one of relu, leaky-relu"; `or "auto"` when automatic.
  std::string expectation() const;
  // The default as describe and messages show it: 0.5, "relu", auto (1/√D), or (required).
  std::string default_text() const;
  // Empty when the value is acceptable, otherwise why not ("got -1").
  std::optional<std::string> check(const Value& value) const;
};

class Schema {
 public:
  ParamSpec& boolean(const std::string& name, bool fallback, const std::string& doc);
  ParamSpec& integer(const std::string& name, std::int64_t fallback, const std::string& doc);
  ParamSpec& integer(const std::string& name, Automatic fallback, const std::string& doc);
  ParamSpec& real(const std::string& name, double fallback, const std::string& doc);
  ParamSpec& real(const std::string& name, Automatic fallback, const std::string& doc);
  ParamSpec& string(const std::string& name, const std::string& fallback, const std::string& doc);
  ParamSpec& choice(const std::string& name, const std::string& fallback,
                    std::vector<std::string> choices, const std::string& doc);
  ParamSpec& integers(const std::string& name, std::vector<std::int64_t> fallback,
                      const std::string& doc);
  ParamSpec& reals(const std::string& name, std::vector<double> fallback, const std::string& doc);
  ParamSpec& strings(const std::string& name, std::vector<std::string> fallback,
                     const std::string& doc);
  // A list of sub-components of one kind (a network's layers), written as a list of tables; the
  // default is no entry. `kind` is component.hpp's Kind.
  template <class KindEnum>
  ParamSpec& components(const std::string& name, KindEnum kind, const std::string& doc) {
    return components_of(name, static_cast<KindNumber>(kind), doc);
  }
  ParamSpec& add(ParamSpec spec);
  // Appends another schema's entries (e.g. the learning-rate schedule shared by optimizers).
  Schema& merge(const Schema& other);
  // Keys beyond the declared ones are accepted, typed by how TOML writes them (integer, number, string,
  // boolean, or a list of one of these), and handed to the component in Params, which checks them itself:
  // for a component whose parameters are declared elsewhere (a Python probe's function). `doc` says what
  // they are, for describe.
  Schema& other_keys(const std::string& doc);

  const ParamSpec* find(const std::string& name) const;
  const std::vector<ParamSpec>& specs() const { return specs_; }
  // Set when other keys are accepted: what they are.
  const std::optional<std::string>& other_keys_doc() const { return other_keys_; }

 private:
  ParamSpec& components_of(const std::string& name, KindNumber kind, const std::string& doc);

  std::vector<ParamSpec> specs_;
  std::optional<std::string> other_keys_;
};

// Validated values: one per schema entry, defaults filled in.
class Params {
 public:
  Params() = default;
  explicit Params(std::map<std::string, Value> values) : values_(std::move(values)) {}

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const Value& at(const std::string& name) const;
  void set(const std::string& name, Value value) { values_[name] = std::move(value); }

  bool boolean(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  double real(const std::string& name) const;  // also accepts an Int value
  const std::string& str(const std::string& name) const;
  const std::vector<std::int64_t>& integers(const std::string& name) const;
  std::vector<double> reals(const std::string& name) const;  // also accepts an IntList value
  const std::vector<std::string>& strings(const std::string& name) const;
  const ComponentList& components(const std::string& name) const;
  // An automatic key: empty when it is "auto" (the component derives it), else its value.
  std::optional<std::int64_t> integer_or_auto(const std::string& name) const;
  std::optional<double> real_or_auto(const std::string& name) const;

  const std::map<std::string, Value>& values() const { return values_; }

  // Defaults of a schema, for tests and for components built directly from C++.
  static Params defaults(const Schema& schema);

 private:
  std::map<std::string, Value> values_;
};

// One entry of a Components parameter, as the core validated it.
struct ComponentSpec {
  std::string use;    // the registry name, qualified by its pack once validated ("std:linear")
  Params params;      // every schema entry, defaults filled
  std::string name;   // the name the pipeline gave it (`name = "hidden"`), or empty
  // Names for the parameter blocks it declares, in declaration order (`blocks = ["W", "b"]`); empty:
  // the owner's default naming.
  std::vector<std::string> block_names;
  std::string path;   // where in the pipeline: "model.layer.2", "model.layer.3.layers.0"
  std::string where;  // file:line of its table, for messages
};

bool operator==(const ComponentSpec& a, const ComponentSpec& b);
inline bool operator!=(const ComponentSpec& a, const ComponentSpec& b) { return !(a == b); }
bool operator==(const Params& a, const Params& b);

}  // namespace featurelab
