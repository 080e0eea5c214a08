// Pipeline validation: sections, reserved keys, component lookup and schema checks.
#include "kernel/config/validate.hpp"
#include "kernel/config/init_source.hpp"
#include "kernel/job/saved_params.hpp"

#include "kernel/text/names.hpp"
#include "kernel/text/suggest.hpp"

#include <featurelab/activation.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace featurelab {

namespace {

const std::vector<std::string> kSections = {"experiment", "data",  "transform", "augment", "model",
                                            "loss",       "regularizer", "optimizer", "train", "probe",
                                            "attack",     "callback",  "assert",    "sweep",     "search",    "prune"};

// Probe and attack names prefix metrics ("accuracy.test") and name table files
// (tables/<name>.<table>.step<N>.csv): a dot would split the metric, a slash or an absolute path
// would put files outside the job's directory.
bool is_plain_name(const std::string& name) { return is_word(name, "-_"); }

std::string suggestion(const std::string& wrong, const std::vector<std::string>& candidates) {
  if (auto guess = closest_name(wrong, candidates)) return "; did you mean '" + *guess + "'?";
  return {};
}

class Validator {
 public:
  Validator(const PipelineSource& source, const Catalog& catalog) : source_(source), catalog_(catalog) {}

  Pipeline run() {
    Pipeline p;
    p.file = source_.file;
    const toml::table& root = source_.table;
    for (auto&& [key, node] : root) {
      const std::string k(key.str());
      if (std::find(kSections.begin(), kSections.end(), k) == kSections.end()) {
        error(node, k, "unknown section" + suggestion(k, kSections) +
                           " (sections: experiment, data, transform, augment, model, loss, regularizer, optimizer, "
                           "train, probe, attack, callback, assert, sweep, search, prune)");
      }
    }
    experiment(root, p);
    p.data = single(root, "data", Kind::Distribution, "", {"train", "test"});
    if (const auto* data = root["data"].as_table()) {
      p.train_size = size_key(*data, "data", "train", 1000, 1);
      p.test_size = size_key(*data, "data", "test", 1000, 0);
    }
    p.transforms = list(root, "transform", Kind::Transform, {});
    p.augments = list(root, "augment", Kind::Augment, {});
    p.model = single(root, "model", Kind::Model, "", {"init_from"});
    init_from(root, p);
    p.loss = single(root, "loss", Kind::Loss, "", {});
    p.regularizers = list(root, "regularizer", Kind::Regularizer, {});
    p.optimizer = single(root, "optimizer", Kind::Optimizer, "", {});
    p.trainer = single(root, "train", Kind::Trainer, "standard", {});
    p.probes = list(root, "probe", Kind::Probe, {"name", "every"});
    p.attacks = list(root, "attack", Kind::Attack, {"name"});
    p.callbacks = list(root, "callback", Kind::Callback, {});
    unique_names(p.probes, "probe");
    unique_names(p.attacks, "attack");
    asserts(root, p);
    prune(root, p);
    // [sweep] is expanded into jobs by the plan (kernel/job/plan.cpp) before validation.
    if (!errors_.empty()) throw ConfigError(errors_);
    return p;
  }

 private:
  void error(const toml::node& node, const std::string& key, const std::string& message) {
    errors_.push_back({where(node), key + ": " + message});
  }
  void error_at(const std::string& at, const std::string& key, const std::string& message) {
    errors_.push_back({at, key + ": " + message});
  }

  // [prune]: the median rule's metric (a probe's: <probe name>.<metric>), its goal, from which step, over how many jobs.
  void prune(const toml::table& root, Pipeline& p) {
    const toml::node* node = root.get("prune");
    if (!node) return;
    const auto* t = node->as_table();
    if (!t) {
      error(*node, "prune", "expected a table [prune] with metric = \"<probe>.<metric>\"");
      return;
    }
    PruneRule rule;
    rule.where = where(*node);
    // Not capturing the loop's structured binding: C++17 lambdas cannot (Clang refuses it).
    const auto step_count = [&](const toml::node& value, const std::string& k, Index& into, Index least) {
      if (const auto* i = value.as_integer(); i && i->get() >= least) {
        into = static_cast<Index>(i->get());
      } else {
        error(value, "prune." + k, "expected an integer >= " + std::to_string(least));
      }
    };
    for (auto&& [key, value] : *t) {
      const std::string k(key.str());
      if (k == "metric") {
        const auto* s = value.as_string();
        const std::string probe = s ? s->get().substr(0, s->get().find('.')) : "";
        const bool known = std::any_of(p.probes.begin(), p.probes.end(), [&](const ComponentConfig& c) { return c.name == probe; });
        if (!s || s->get().find('.') == std::string::npos || !known) {
          std::string names;
          for (const auto& c : p.probes) names += (names.empty() ? "" : ", ") + c.name;
          error(value, "prune.metric", "expected a probe's metric, \"<probe name>.<metric>\" (probes: " + (names.empty() ? "none" : names) + ")");
        } else {
          rule.metric = s->get();
        }
      } else if (k == "goal") {
        const auto* s = value.as_string();
        if (s && (s->get() == "max" || s->get() == "min")) {
          rule.maximize = s->get() == "max";
        } else {
          error(value, "prune.goal", "expected \"max\" (higher is better) or \"min\"");
        }
      } else if (k == "after") {
        step_count(value, k, rule.after, 0);
      } else if (k == "min_jobs") {
        step_count(value, k, rule.min_jobs, 1);
      } else {
        error(value, "prune." + k, "unknown key" + suggestion(k, {"metric", "goal", "after", "min_jobs"}));
      }
    }
    if (rule.metric.empty() && !t->get("metric")) error(*node, "prune", "no metric; write metric = \"<probe name>.<metric>\"");
    p.prune = rule;
  }

  // [model] init_from (init_source.hpp): read and located here; which job it comes to is resolved per seed by the run.
  void init_from(const toml::table& root, Pipeline& p) {
    const auto* model = root["model"].as_table();
    const toml::node* node = model ? model->get("init_from") : nullptr;
    if (!node) return;
    try {
      p.init_from = read_init_source(*node, [&](const std::string& path) { return relative_to_pipeline(path); });
      p.init_from->where = where(*node);
    } catch (const Error& e) {
      error(*node, "model.init_from", e.what());
    }
  }

  void experiment(const toml::table& root, Pipeline& p) {
    p.name = source_.file.stem().string();
    const toml::table* t = root["experiment"].as_table();
    if (!t) return;
    for (auto&& [key, node] : *t) {
      const std::string k(key.str());
      const std::string dotted = "experiment." + k;
      if (k == "name" || k == "description") {
        if (!node.is_string()) {
          error(node, dotted, "expected a string");
        } else if (k == "name" && has_control_character(node.as_string()->get())) {
          error(node, dotted, "the name " + shown_with_escapes(node.as_string()->get()) +
                                  " holds a control character: a name reaches plot and Slurm scripts, where a newline "
                                  "would start a command; write it on one line of printable characters");
        } else {
          (k == "name" ? p.name : p.description) = node.as_string()->get();
        }
      } else if (k == "save_params") {
        if (const auto* s = node.as_string()) {
          try {
            parse_save_params(s->get(), where(node));
            p.save_params = s->get();
          } catch (const ConfigError& e) {
            error(node, dotted, "expected \"final\" (the last step's parameters) or \"every:N\" (every evaluation step that is "
                                "a multiple of N, and the last), got '" + s->get() + "'");
          }
        } else {
          error(node, dotted, "expected \"final\" or \"every:N\", as run --save-params takes it");
        }
      } else if (k == "timeout") {
        if ((node.is_integer() || node.is_floating_point()) && node.value<double>().value_or(-1) >= 0) {
          p.timeout = node.value<double>().value_or(0);
        } else {
          error(node, dotted, "expected seconds per job (a number >= 0), e.g. timeout = 600");
        }
      } else if (k == "seeds") {
        p.seeds.clear();
        if (auto* i = node.as_integer()) {
          p.seeds.push_back(i->get());
        } else if (auto* arr = node.as_array()) {
          std::set<std::int64_t> listed;
          for (auto& item : *arr) {
            if (auto* v = item.as_integer(); v && v->get() >= 0) {
              // A seed twice is the same job twice: one id, and a replicate counted that is not one.
              if (!listed.insert(v->get()).second) {
                error(item, dotted, "seed " + std::to_string(v->get()) + " is listed twice; list each seed once");
              }
              p.seeds.push_back(v->get());
            } else {
              error(item, dotted, "expected non-negative integers, e.g. seeds = [0, 1, 2]");
            }
          }
        } else {
          error(node, dotted, "expected a list of integers, e.g. seeds = [0, 1, 2]");
        }
        if (p.seeds.empty()) error(node, dotted, "needs at least one seed");
      } else {
        error(node, dotted, "unknown key" + suggestion(k, {"name", "description", "seeds", "base", "timeout", "save_params"}));
      }
    }
  }

  Index size_key(const toml::table& t, const std::string& section, const std::string& key, Index fallback,
                 Index minimum) {
    const toml::node* node = t.get(key);
    if (!node) return fallback;
    // "all": every sample of a finite distribution's split (resolved when the distribution exists).
    if (const auto* text = node->as_string(); text && text->get() == "all") return kAllSamples;
    const auto* i = node->as_integer();
    if (!i || i->get() < minimum) {
      error(*node, section + "." + key, "expected an integer >= " + std::to_string(minimum) + " or \"all\", got " +
                                            (i ? std::to_string(i->get()) : std::string("a ") + toml_type(*node)));
      return fallback;
    }
    return static_cast<Index>(i->get());
  }

  static std::string toml_type(const toml::node& node) {
    switch (node.type()) {
      case toml::node_type::string: return "string";
      case toml::node_type::integer: return "integer";
      case toml::node_type::floating_point: return "number";
      case toml::node_type::boolean: return "boolean";
      case toml::node_type::array: return "list";
      case toml::node_type::table: return "table";
      default: return "date/time";
    }
  }

  static std::string render(const toml::node& node) {
    std::ostringstream out;
    node.visit([&out](const auto& v) {
      if constexpr (toml::is_string<decltype(v)>) {
        out << '"' << v.get() << '"';
      } else if constexpr (toml::is_table<decltype(v)>) {
        out << "a table";
      } else {
        out << v;
      }
    });
    return out.str();
  }

  // "" → the pipeline file's directory; a relative path → resolved against it; an absolute one as it is.
  std::string relative_to_pipeline(const std::string& value) const {
    const std::filesystem::path given(value);
    if (given.is_absolute()) return given.lexically_normal().string();
    std::error_code ignored;
    const std::filesystem::path base = source_.file.empty() ? std::filesystem::current_path(ignored)
                                                            : std::filesystem::absolute(source_.file, ignored).parent_path();
    return (value.empty() ? base : (base / given).lexically_normal()).string();
  }

  // A key of a schema with other keys: typed by how TOML writes it (a list of integers and numbers is numbers).
  std::optional<Value> convert_untyped(const toml::node& node, std::string& why) {
    if (auto* b = node.as_boolean()) return Value(b->get());
    if (auto* i = node.as_integer()) return Value(static_cast<std::int64_t>(i->get()));
    if (auto* f = node.as_floating_point()) return Value(f->get());
    if (auto* s = node.as_string()) return Value(s->get());
    if (const auto* arr = node.as_array()) {
      bool strings = !arr->empty(), ints = true;
      for (const auto& item : *arr) {
        strings = strings && item.is_string();
        ints = ints && item.is_integer();
      }
      ParamSpec list;
      list.name = "";
      list.type = strings ? ParamType::StringList : ints ? ParamType::IntList : ParamType::RealList;
      return convert(node, list, why);
    }
    why = "got " + render(node) + " (" + toml_type(node) + ")";
    return std::nullopt;
  }

  // Converts a TOML value to the declared type, or explains why it cannot be.
  std::optional<Value> convert(const toml::node& node, const ParamSpec& spec, std::string& why) {
    auto bad = [&] {
      why = "got " + render(node) + " (" + toml_type(node) + ")";
      return std::nullopt;
    };
    if (const auto* text = node.as_string(); text && (spec.type == ParamType::Int || spec.type == ParamType::Real)) {
      if (spec.automatic && text->get() == kAuto) return Value(std::string(kAuto));
      if (text->get() == kAuto) {
        why = "got \"auto\", but " + spec.name + " has no automatic value: give a number";
        return std::nullopt;
      }
    }
    switch (spec.type) {
      case ParamType::Bool:
        if (auto* b = node.as_boolean()) return Value(b->get());
        return bad();
      case ParamType::Int:
        if (auto* i = node.as_integer()) return Value(static_cast<std::int64_t>(i->get()));
        return bad();
      case ParamType::Real:
        if (auto* f = node.as_floating_point()) return Value(f->get());
        if (auto* i = node.as_integer()) return Value(static_cast<double>(i->get()));
        return bad();
      case ParamType::String:
        if (auto* s = node.as_string()) return Value(s->get());
        return bad();
      case ParamType::IntList:
      case ParamType::RealList:
      case ParamType::StringList: {
        const auto* arr = node.as_array();
        if (!arr) return bad();
        std::vector<std::int64_t> ints;
        std::vector<double> reals;
        std::vector<std::string> strings;
        for (const auto& item : *arr) {
          if (spec.type == ParamType::IntList) {
            if (auto* i = item.as_integer()) ints.push_back(i->get()); else return bad();
          } else if (spec.type == ParamType::RealList) {
            if (auto* f = item.as_floating_point()) {
              reals.push_back(f->get());
            } else if (auto* i = item.as_integer()) {
              reals.push_back(static_cast<double>(i->get()));
            } else {
              return bad();
            }
          } else {
            if (auto* s = item.as_string()) strings.push_back(s->get()); else return bad();
          }
        }
        if (spec.type == ParamType::IntList) return Value(ints);
        if (spec.type == ParamType::RealList) return Value(reals);
        return Value(strings);
      }
      case ParamType::Components:  // sub_components()
        return bad();
    }
    return bad();
  }

  ComponentConfig component(const toml::table& t, const std::string& path, Kind kind,
                            const std::string& default_use, const std::vector<std::string>& reserved) {
    ComponentConfig c;
    c.kind = kind;
    c.path = path;
    c.where = where(t);
    const toml::node* use = t.get("use");
    if (!use && default_use.empty()) {
      error_at(c.where, path, "missing 'use = \"<" + std::string(to_string(kind)) + " name>\"' (see: featurelab list " +
                                  to_string(kind) + ")");
      return c;
    }
    if (use && !use->is_string()) {
      error(*use, path + ".use", "expected the name of a " + std::string(to_string(kind)) + " (a string)");
      return c;
    }
    c.use = use ? use->as_string()->get() : default_use;
    const std::string bare = c.use.substr(c.use.find(':') == std::string::npos ? 0 : c.use.find(':') + 1);
    c.name = bare;
    if (const toml::node* n = t.get("name"); n && kind != Kind::Layer) {  // a layer's: sub_components()
      if (std::find(reserved.begin(), reserved.end(), "name") != reserved.end()) {
        if (auto* s = n->as_string(); s && is_plain_name(s->get())) {
          c.name = s->get();
        } else {
          error(*n, path + ".name", "expected a name of letters, digits, '-' and '_' (it prefixes the metrics and "
                                    "names the table files in the job's directory), got " + render(*n));
        }
      }
    }
    if (const toml::node* n = t.get("every");
        n && std::find(reserved.begin(), reserved.end(), "every") != reserved.end()) {
      if (auto* i = n->as_integer(); i && i->get() >= 0) {
        c.every = i->get();
      } else {
        error(*n, path + ".every", "expected a step count >= 0 (the probe runs at step 0, at the last step and at "
                                   "the evaluations whose step is a multiple of it; 0: those two only), got " +
                                       render(*n));
      }
    }
    // A layer may be written as an activation's name (use = "tanh"): std's `activation` layer applying it.
    std::string activation_alias;
    try {
      c.ref = catalog_.find(kind, c.use);
    } catch (const Error& e) {
      if (kind == Kind::Layer && names_activation(c.use)) {
        activation_alias = c.use;
        c.use = "activation";
        try {
          c.ref = catalog_.find(kind, c.use);
        } catch (const Error& again) {
          error_at(use ? where(*use) : c.where, path + ".use", again.what());
          return c;
        }
      } else {
        error_at(use ? where(*use) : c.where, path + ".use",
                 std::string(e.what()) +
                     (kind == Kind::Layer ? " (an activation's name makes a layer too: featurelab list activation, "
                                            "or one of relu, leaky-relu, smoothed-relu, poly, identity)"
                                          : ""));
        return c;
      }
    }
    const Schema& schema = c.ref.component->schema;
    std::vector<std::string> known{"use"};
    known.insert(known.end(), reserved.begin(), reserved.end());
    for (const auto& spec : schema.specs()) known.push_back(spec.name);
    std::map<std::string, Value> values;
    if (!activation_alias.empty()) {
      if (const toml::node* written = t.get("activation")) {
        error(*written, path + ".activation", "use = \"" + activation_alias + "\" names the activation already; "
                                              "leave out activation, or write use = \"activation\"");
      }
      values["activation"] = activation_alias;
    }
    for (auto&& [key, node] : t) {
      const std::string k(key.str());
      if (!activation_alias.empty() && k == "activation") continue;
      if (k == "use" || std::find(reserved.begin(), reserved.end(), k) != reserved.end()) continue;
      const ParamSpec* spec = schema.find(k);
      const std::string dotted = path + "." + k;
      if (!spec && schema.other_keys_doc()) {
        std::string why;
        if (auto value = convert_untyped(node, why)) {
          values[k] = *value;
        } else {
          error(node, dotted, "expected an integer, a number, a string, a boolean or a list of one of these, " + why);
        }
        continue;
      }
      if (!spec) {
        std::string msg = "unknown parameter of " + std::string(to_string(kind)) + " '" + c.use + "'" +
                          suggestion(k, known);
        if (schema.specs().empty()) {
          msg += " (it takes no parameters)";
        } else {
          msg += " (it takes:";
          for (const auto& s : schema.specs()) msg += " " + s.name;
          msg += ")";
        }
        error(node, dotted, msg);
        continue;
      }
      if (spec->type == ParamType::Components) {
        Value entries = sub_components(node, dotted, static_cast<Kind>(spec->component_kind));
        if (auto short_by = spec->check(entries)) error(node, dotted, "expected " + spec->expectation() + ", " + *short_by);
        values[k] = std::move(entries);
        continue;
      }
      std::string why;
      auto value = convert(node, *spec, why);
      if (value) {
        if (auto range = spec->check(*value)) why = *range;
      }
      if (!why.empty()) {
        std::string msg = "expected " + spec->expectation() + ", " + why;
        if (spec->automatic && value && !is_auto(*value) && (node.is_integer() || node.is_floating_point()) &&
            node.value<double>().value_or(1) == 0) {
          // Before automatic values, 0 asked for the derived value: say what asks for it now.
          msg += "; 0 no longer means " + *spec->automatic + ": write " + k + " = \"auto\"" +
                 (spec->default_value && is_auto(*spec->default_value) ? " or leave the key out" : "");
        } else if (spec->default_value) {
          msg += "; the default is " + spec->default_text();
        }
        error(node, dotted, msg);
        continue;
      }
      values[k] = *value;
    }
    for (const auto& spec : schema.specs()) {
      if (values.count(spec.name)) continue;
      if (spec.default_value) {
        values[spec.name] = *spec.default_value;
      } else {
        error_at(c.where, path + "." + spec.name, "required parameter missing: " + spec.doc + " (" +
                                                      spec.expectation() + ")");
      }
    }
    for (const auto& spec : schema.specs()) {
      auto found = values.find(spec.name);
      if (spec.pipeline_relative && found != values.end() && std::holds_alternative<std::string>(found->second)) {
        found->second = relative_to_pipeline(std::get<std::string>(found->second));
      }
    }
    c.params = Params(std::move(values));
    return c;
  }

  bool names_activation(const std::string& name) const {
    const auto& builtin = Activation::names();
    if (std::find(builtin.begin(), builtin.end(), name) != builtin.end()) return true;
    try {
      catalog_.find(Kind::Activation, name);
      return true;
    } catch (const Error&) {
      return false;
    }
  }

  // A Components parameter: a list of tables (inline or [[model.layer]]), each a component of `kind`
  // validated against its own schema; a layer also takes `name` (its hook point and block prefix) and
  // `blocks` (names for its parameter blocks).
  ComponentList sub_components(const toml::node& node, const std::string& path, Kind kind) {
    ComponentList out;
    const toml::array* arr = node.as_array();
    if (!arr) {
      error(node, path, "expected a list of tables, each with use = \"<" + std::string(to_string(kind)) +
                            " name>\": [[" + path + "]] tables, or " + path.substr(path.rfind('.') + 1) +
                            " = [{ use = \"...\" }, ...]");
      return out;
    }
    const std::vector<std::string> reserved =
        kind == Kind::Layer ? std::vector<std::string>{"name", "blocks"} : std::vector<std::string>{};
    for (std::size_t i = 0; i < arr->size(); ++i) {
      const toml::node& item = *arr->get(i);
      const std::string item_path = path + "." + std::to_string(i);
      const toml::table* t = item.as_table();
      if (!t) {
        error(item, item_path, "expected a table with use = \"<" + std::string(to_string(kind)) + " name>\"");
        continue;
      }
      if (const auto* use = t->get("use"); use && use->is_string() && use->as_string()->get() == "none") continue;
      ComponentConfig c = component(*t, item_path, kind, "", reserved);
      if (!c.ref.component) continue;  // reported
      ComponentSpec spec;
      spec.use = c.ref.qualified();
      spec.params = c.params;
      spec.path = item_path;
      spec.where = c.where;
      if (const toml::node* n = t->get("name")) {
        if (auto* text = n->as_string(); text && is_plain_name(text->get())) {
          spec.name = text->get();
        } else {
          error(*n, item_path + ".name", "expected a name of letters, digits, '-' and '_' (it names the layer's hook "
                                         "point and prefixes its blocks), got " + render(*n));
        }
      }
      if (const toml::node* b = t->get("blocks")) {
        const toml::array* names = b->as_array();
        bool ok = names != nullptr;
        if (names) {
          for (const auto& name : *names) {
            const auto* text = name.as_string();
            if (!text || text->get().empty() || text->get().find_first_of(" \t\n\r\"'/\\") != std::string::npos) {
              ok = false;
            } else {
              spec.block_names.push_back(text->get());
            }
          }
        }
        if (!ok) {
          error(*b, item_path + ".blocks", "expected names for the layer's parameter blocks, in the order it declares "
                                           "them, e.g. blocks = [\"W\", \"b\"]");
        }
      }
      out.push_back(std::move(spec));
    }
    return out;
  }

  ComponentConfig single(const toml::table& root, const std::string& section, Kind kind,
                         const std::string& default_use, const std::vector<std::string>& reserved) {
    const toml::node* node = root.get(section);
    if (!node) {
      if (!default_use.empty()) return component(toml::table{}, section, kind, default_use, reserved);
      errors_.push_back({source_.file.string(), "missing section [" + section + "] with use = \"<" +
                                                    to_string(kind) + " name>\" (see: featurelab list " +
                                                    to_string(kind) + ")"});
      return {};
    }
    const toml::table* t = node->as_table();
    if (!t) {
      error(*node, section, "expected a table [" + section + "]");
      return {};
    }
    return component(*t, section, kind, default_use, reserved);
  }

  std::vector<ComponentConfig> list(const toml::table& root, const std::string& section, Kind kind,
                                    const std::vector<std::string>& reserved) {
    std::vector<ComponentConfig> out;
    const toml::node* node = root.get(section);
    if (!node) return out;
    const toml::array* arr = node->as_array();
    if (!arr) {
      error(*node, section, "expected a list of tables: write [[" + section + "]] (double brackets)");
      return out;
    }
    for (std::size_t i = 0; i < arr->size(); ++i) {
      const toml::node& item = *arr->get(i);
      const std::string path = section + "." + std::to_string(i);
      if (const auto* t = item.as_table()) {
        // use = "none" switches an entry off (so a [sweep] can compare with and without it).
        if (const auto* use = t->get("use"); use && use->is_string() && use->as_string()->get() == "none") continue;
        out.push_back(component(*t, path, kind, "", reserved));
      } else {
        error(item, path, "expected a table: write [[" + section + "]]");
      }
    }
    return out;
  }

  void unique_names(const std::vector<ComponentConfig>& items, const std::string& section) {
    std::set<std::string> seen;
    for (const auto& c : items) {
      if (c.name.empty()) continue;
      if (!seen.insert(c.name).second) {
        error_at(c.where, c.path + ".name", "two " + section + "s are named '" + c.name +
                                                "'; give this one another name, e.g. name = \"" + c.name + "-2\"");
      }
    }
  }

  void asserts(const toml::table& root, Pipeline& p) {
    const toml::node* node = root.get("assert");
    if (!node) return;
    const toml::array* arr = node->as_array();
    if (!arr) {
      error(*node, "assert", "expected [[assert]] blocks (double brackets)");
      return;
    }
    for (std::size_t i = 0; i < arr->size(); ++i) {
      const std::string path = "assert." + std::to_string(i);
      const toml::table* t = arr->get(i)->as_table();
      if (!t) {
        error(*arr->get(i), path, "expected a table");
        continue;
      }
      AssertSpec a;
      a.where = where(*t);
      for (auto&& [key, value] : *t) {
        const std::string k(key.str());
        if (k == "expect" && value.is_string()) {
          a.expect = value.as_string()->get();
        } else if (k == "at" && value.is_string() &&
                   (value.as_string()->get() == "final" || value.as_string()->get() == "every")) {
          a.at = value.as_string()->get();
        } else if (k == "at" && value.is_integer() && value.as_integer()->get() >= 0) {
          a.at = std::to_string(value.as_integer()->get());
        } else if (k == "over" && value.is_string()) {
          a.over = value.as_string()->get();
          if (a.over != "every-seed" && a.over != "mean" && a.over != "any" && !seed_share(a.over)) {
            error(value, path + ".over",
                  "expected one of every-seed, mean, any, or a share of the seeds such as \"80%\", got \"" + a.over + "\"");
          }
        } else if (k == "where" && value.is_string()) {
          a.points = value.as_string()->get();
        } else if (k == "control" && value.is_string()) {
          a.controls.push_back(value.as_string()->get());
        } else if (k == "control" && value.is_array() && value.as_array()->is_homogeneous(toml::node_type::string)) {
          for (const auto& c : *value.as_array()) a.controls.push_back(c.as_string()->get());
        } else if (k == "holds_at_init" && value.is_boolean()) {
          a.holds_at_init = value.as_boolean()->get();
        } else if (k == "expect" || k == "at" || k == "over" || k == "where" || k == "control" || k == "holds_at_init") {
          error(value, path + "." + k,
                k == "at"              ? "expected \"final\", \"every\" (each recorded step after 0) or a step number"
                : k == "control"       ? "expected a selector \"key=value ...\" (or a list of them), e.g. \"step=0\""
                : k == "holds_at_init" ? "expected true or false"
                                       : "expected a string");
        } else {
          error(value, path + "." + k,
                "unknown key" + suggestion(k, {"expect", "at", "over", "where", "control", "holds_at_init"}));
        }
      }
      if (a.expect.empty()) error_at(a.where, path, "missing expect = \"<probe>.<metric> <op> <number>\"");
      p.asserts.push_back(a);
    }
  }

  const PipelineSource& source_;
  const Catalog& catalog_;
  std::vector<Diagnostic> errors_;
};

}  // namespace

Pipeline validate_pipeline(const PipelineSource& source, const Catalog& catalog) {
  return Validator(source, catalog).run();
}

}  // namespace featurelab
