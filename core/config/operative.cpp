// The operative configuration: the pipeline as it runs, every parameter with its value.
#include "config/pipeline.hpp"

#include <toml++/toml.h>

#include <sstream>

namespace featurelab {

namespace {

template <class T>
toml::array to_array(const std::vector<T>& items) {
  toml::array arr;
  for (const auto& x : items) arr.push_back(x);
  return arr;
}

void put(toml::table& t, const std::string& key, const Value& value) {
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::vector<std::int64_t>> || std::is_same_v<V, std::vector<double>> ||
                      std::is_same_v<V, std::vector<std::string>>) {
          t.insert_or_assign(key, to_array(v));
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
  for (const auto& [key, value] : c.params.values()) put(t, key, value);
  return t;
}

toml::array component_list(const std::vector<ComponentConfig>& items, bool with_name) {
  toml::array arr;
  for (const auto& c : items) arr.push_back(component_table(c, with_name));
  return arr;
}

}  // namespace

std::string Pipeline::operative_toml() const {
  toml::table root;
  toml::table experiment;
  experiment.insert_or_assign("name", name);
  if (!description.empty()) experiment.insert_or_assign("description", description);
  experiment.insert_or_assign("seeds", to_array(seeds));
  if (timeout > 0) experiment.insert_or_assign("timeout", timeout);
  root.insert_or_assign("experiment", experiment);
  toml::table d = component_table(data, false);
  for (auto [key, size] : {std::pair{"train", train_size}, std::pair{"test", test_size}}) {
    if (size == kAllSamples) {
      d.insert_or_assign(key, "all");
    } else {
      d.insert_or_assign(key, static_cast<std::int64_t>(size));
    }
  }
  root.insert_or_assign("data", d);
  if (!transforms.empty()) root.insert_or_assign("transform", component_list(transforms, false));
  if (!augments.empty()) root.insert_or_assign("augment", component_list(augments, false));
  root.insert_or_assign("model", component_table(model, false));
  root.insert_or_assign("loss", component_table(loss, false));
  if (!regularizers.empty()) root.insert_or_assign("regularizer", component_list(regularizers, false));
  root.insert_or_assign("optimizer", component_table(optimizer, false));
  root.insert_or_assign("train", component_table(trainer, false));
  if (!probes.empty()) root.insert_or_assign("probe", component_list(probes, true));
  if (!attacks.empty()) root.insert_or_assign("attack", component_list(attacks, true));
  if (!asserts.empty()) {
    toml::array arr;
    for (const auto& a : asserts) {
      toml::table t;
      t.insert_or_assign("expect", a.expect);
      t.insert_or_assign("at", a.at);
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
  std::ostringstream out;
  out << "# Operative configuration written by featurelab: every parameter used, defaults included.\n";
  out << toml::toml_formatter(root) << "\n";
  return out.str();
}

}  // namespace featurelab
