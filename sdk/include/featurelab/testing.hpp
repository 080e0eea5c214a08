// Helpers for a plugin's own tests: build a component from its registered schema and some
// overrides, exactly as the core would, without a pipeline file.
//
//   featurelab::testing::Harness h(FEATURELAB_TEST_PLUGIN);   // path of the built plugin
//   auto model = h.make<featurelab::Model>("two-layer", {{"width", int64_t(8)}}, spec);
//
// The harness loads the real plugin binary, so a test exercises what users load. Objects it
// makes must be destroyed before the harness (it holds the library).
#pragma once

#include <featurelab/pack.hpp>

#include <map>
#include <memory>
#include <string>

namespace featurelab::testing {

// Validates overrides against the schema (throws Error naming the bad key) and fills defaults.
Params resolve(const Schema& schema, const std::map<std::string, Value>& overrides);

class Harness {
 public:
  explicit Harness(const std::string& library_path);
  ~Harness();
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  const ComponentInfo& info(Kind kind, const std::string& name) const;

  template <class T>
  std::unique_ptr<T> make(const std::string& name, const std::map<std::string, Value>& overrides,
                          const DataSpec& data = {}, std::uint64_t seed = 1,
                          const FeatureSet* features = nullptr) {
    const ComponentInfo& component = info(T::kind_id, name);
    Context context;
    context.rng = Rng(derive_seed(seed, name));
    context.path = name;
    context.data = data;
    context.features = features;  // the distribution's ground truth, for components that read it
    std::unique_ptr<Component> made = component.create(resolve(component.schema, overrides), context);
    return std::unique_ptr<T>(static_cast<T*>(made.release()));
  }

 private:
  struct Library;
  std::unique_ptr<Library> library_;
  PackBuilder builder_;
};

}  // namespace featurelab::testing
