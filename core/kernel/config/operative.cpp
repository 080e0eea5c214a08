// The operative configuration: the pipeline as it runs, every parameter with its value.
#include "kernel/config/init_source.hpp"
#include "kernel/config/pipeline.hpp"

#include <toml++/toml.h>

#include <cstdint>
#include <sstream>
#include <string>

namespace featurelab {

namespace {

template <class T>
toml::array to_array(const std::vector<T>& items) {
  toml::array arr;
  for (const auto& x : items) arr.push_back(x);
  return arr;
}

void put(toml::table& t, const std::string& key, const Value& value);

// A sub-component (a network's layer) as the table it was written as, every parameter filled in.
toml::table sub_component_table(const ComponentSpec& c) {
  toml::table t;
  t.insert_or_assign("use", c.use);
  if (!c.name.empty()) t.insert_or_assign("name", c.name);
  if (!c.block_names.empty()) t.insert_or_assign("blocks", to_array(c.block_names));
  for (const auto& [key, value] : c.params.values()) put(t, key, value);
  return t;
}

void put(toml::table& t, const std::string& key, const Value& value) {
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::vector<std::int64_t>> || std::is_same_v<V, std::vector<double>> ||
                      std::is_same_v<V, std::vector<std::string>>) {
          t.insert_or_assign(key, to_array(v));
        } else if constexpr (std::is_same_v<V, ComponentList>) {
          toml::array arr;
          for (const auto& c : v) arr.push_back(sub_component_table(c));
          t.insert_or_assign(key, arr);
        } else {
          t.insert_or_assign(key, v);
        }
      },
      value);
}

toml::table component_table(const ComponentConfig& c, bool with_name) {
  toml::table t;
  t.insert_or_assign("use", c.ref.pack ? c.ref.qualified() : c.use);
  if (with_name) t.insert_or_assign("name", c.name);
  if (c.every) t.insert_or_assign("every", *c.every);
  for (const auto& [key, value] : c.params.values()) put(t, key, value);
  return t;
}

toml::array component_list(const std::vector<ComponentConfig>& items, bool with_name) {
  toml::array arr;
  for (const auto& c : items) arr.push_back(component_table(c, with_name));
  return arr;
}

// The operative configuration as a table: operative_toml() writes it whole, computed_toml() without
// the tables that do not change what a job computes.
toml::table operative_table(const Pipeline& p) {
  toml::table root;
  toml::table experiment;
  experiment.insert_or_assign("name", p.name);
  if (!p.description.empty()) experiment.insert_or_assign("description", p.description);
  experiment.insert_or_assign("seeds", to_array(p.seeds));
  if (p.timeout > 0) experiment.insert_or_assign("timeout", p.timeout);
  if (!p.save_params.empty()) experiment.insert_or_assign("save_params", p.save_params);
  root.insert_or_assign("experiment", experiment);
  toml::table d = component_table(p.data, false);
  for (auto [key, size] : {std::pair{"train", p.train_size}, std::pair{"test", p.test_size}}) {
    if (size == kAllSamples) {
      d.insert_or_assign(key, "all");
    } else {
      d.insert_or_assign(key, static_cast<std::int64_t>(size));
    }
  }
  root.insert_or_assign("data", d);
  if (!p.transforms.empty()) root.insert_or_assign("transform", component_list(p.transforms, false));
  if (!p.augments.empty()) root.insert_or_assign("augment", component_list(p.augments, false));
  toml::table model = component_table(p.model, false);
  if (p.init_from) model.insert_or_assign("init_from", init_source_table(*p.init_from));
  root.insert_or_assign("model", model);
  root.insert_or_assign("loss", component_table(p.loss, false));
  if (!p.regularizers.empty()) root.insert_or_assign("regularizer", component_list(p.regularizers, false));
  root.insert_or_assign("optimizer", component_table(p.optimizer, false));
  root.insert_or_assign("train", component_table(p.trainer, false));
  if (!p.probes.empty()) root.insert_or_assign("probe", component_list(p.probes, true));
  if (!p.attacks.empty()) root.insert_or_assign("attack", component_list(p.attacks, true));
  if (!p.callbacks.empty()) root.insert_or_assign("callback", component_list(p.callbacks, false));
  if (p.prune) {
    toml::table prune;
    prune.insert_or_assign("metric", p.prune->metric);
    prune.insert_or_assign("goal", p.prune->maximize ? "max" : "min");
    prune.insert_or_assign("after", static_cast<std::int64_t>(p.prune->after));
    prune.insert_or_assign("min_jobs", static_cast<std::int64_t>(p.prune->min_jobs));
    root.insert_or_assign("prune", prune);
  }
  if (!p.asserts.empty()) {
    toml::array arr;
    for (const auto& a : p.asserts) {
      toml::table t;
      t.insert_or_assign("expect", a.expect);
      // `at` is "final", "every" or a step number; written back as the integer it was, so that
      // `featurelab job` reads the config.toml that `run --prepare` wrote.
      if (a.at == "final" || a.at == "every") {
        t.insert_or_assign("at", a.at);
      } else {
        t.insert_or_assign("at", static_cast<std::int64_t>(std::stoll(a.at)));
      }
      t.insert_or_assign("over", a.over);
      if (!a.points.empty()) t.insert_or_assign("where", a.points);
      if (!a.controls.empty()) {
        toml::array controls;
        for (const auto& c : a.controls) controls.push_back(c);
        t.insert_or_assign("control", controls);
      }
      if (a.holds_at_init) t.insert_or_assign("holds_at_init", true);
      arr.push_back(t);
    }
    root.insert_or_assign("assert", arr);
  }
  return root;
}

}  // namespace

std::string Pipeline::operative_toml() const {
  std::ostringstream out;
  out << "# Operative configuration written by featurelab: every parameter used, defaults included.\n";
  out << toml::toml_formatter(operative_table(*this)) << "\n";
  return out.str();
}

std::string Pipeline::computed_toml() const {
  toml::table root = operative_table(*this);
  root.erase("experiment");
  root.erase("assert");
  std::ostringstream out;
  out << toml::toml_formatter(root) << "\n";
  return out.str();
}

}  // namespace featurelab
