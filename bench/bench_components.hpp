// The benchmarks make their components through the catalog, exactly as a run does: the plugin
// boundary is part of what they time.
#pragma once

#include "registry/catalog.hpp"

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
  return catalog().make<T>(ref, params, ctx);
}

}  // namespace featurelab::bench
