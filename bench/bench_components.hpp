// The benchmarks make their components through the catalog, exactly as a run does: the plugin
// boundary is part of what they time.
#pragma once

#include <featurelab/core/catalog.hpp>

#include <featurelab/activation.hpp>

#include <map>
#include <memory>
#include <string>

namespace featurelab::bench {

inline Catalog& catalog() {
  static Catalog c = [] {
    Catalog cat;
    cat.discover({FEATURELAB_PLUGIN_BUILD_DIR});
    return cat;
  }();
  return c;
}

// The factories a run's components get (a network's layers, a pack's activation by name), from the catalog;
// a sub-component's parameters are its defaults with what its spec sets.
inline void give_factories(Context& ctx) {
  const DataSpec spec = ctx.data;
  const FeatureSet* features = ctx.features;
  ctx.make_component = [spec, features](Kind kind, const ComponentSpec& sub) -> std::shared_ptr<Component> {
    const auto ref = catalog().find(kind, sub.use);
    Params params = Params::defaults(ref.component->schema);
    for (const auto& [k, v] : sub.params.values()) params.set(k, v);
    Context own;
    own.data = spec;
    own.path = sub.path;
    own.features = features;
    give_factories(own);
    return catalog().make<Component>(ref, params, own);
  };
  ctx.make_activation = [](const std::string& name) -> std::shared_ptr<const ActivationFunction> {
    const auto ref = catalog().find(Kind::Activation, name);
    Context own;
    return catalog().make<ActivationFunction>(ref, Params::defaults(ref.component->schema), own);
  };
}

template <class T>
std::shared_ptr<T> make(Kind kind, const std::string& name, const std::map<std::string, Value>& overrides,
                        const DataSpec& spec, Index total_steps = 1000000, const FeatureSet* features = nullptr) {
  const auto ref = catalog().find(kind, name);
  Params params = Params::defaults(ref.component->schema);
  for (const auto& [k, v] : overrides) params.set(k, v);
  Context ctx;
  ctx.data = spec;
  ctx.path = name;
  ctx.total_steps = total_steps;
  ctx.features = features;
  give_factories(ctx);
  return catalog().make<T>(ref, params, ctx);
}

}  // namespace featurelab::bench
