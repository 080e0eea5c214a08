// Helpers for a plugin's own tests: build a component from its registered schema and some
// overrides, exactly as the core would, without a pipeline file.
//
//   featurelab::testing::Harness h({FEATURELAB_TEST_PLUGIN, FEATURELAB_STD_PLUGIN});  // built plugins
//   auto model = h.make<featurelab::Model>("two-layer", {{"width", int64_t(8)}}, spec);
//   auto loss = h.make<featurelab::Loss>("std:logistic", {}, spec);   // "pack:name" when ambiguous
//
// The harness loads the real plugin binaries, so a test exercises what users load; it checks each
// one's ABI and build fingerprint as the core does. make() returns a shared_ptr that holds the
// library it came from, so objects may outlive the harness.
//
// A pack's tests share one harness per built pack, loaded on first use:
//   auto model = featurelab::testing::pack(MY_PLUGIN).make<featurelab::Model>("my-model", {}, testing::spec(4));
#pragma once

#include <featurelab/pack.hpp>

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace featurelab::testing {

// Validates overrides against the schema (throws Error naming the bad key) and fills defaults.
Params resolve(const Schema& schema, const std::map<std::string, Value>& overrides);

// The data a component built in a test sees: `dim` inputs and `classes` classes (2: binary, one output).
DataSpec spec(Index dim, int classes = 2);

// A layer of a network built in a test, as a [[model.layer]] table would give it (its other parameters
// take their defaults when it is made): layer("linear", {{"out", std::int64_t(100)}}), layer("relu").
ComponentSpec layer(const std::string& use, const std::map<std::string, Value>& params = {},
                    const std::string& name = "");
// The `layer` parameter of a network: the entries with their places ("model.layer.0", ...).
Value layers(std::vector<ComponentSpec> entries, const std::string& path = "model.layer");

class Harness {
 public:
  Harness() = default;
  explicit Harness(const std::string& library_path);
  // Several packs at once, e.g. the pack under test and std (for its losses and trainers).
  Harness(std::initializer_list<std::string> library_paths);
  ~Harness();
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  // Loads one more pack. Throws Error naming the file when it is not a featurelab pack, was built
  // against another ABI or with other flags (the differing fingerprint fields), or its
  // registration throws.
  void load(const std::string& library_path);

  // "name" (unique among the loaded packs) or "pack:name". Throws Error otherwise.
  const ComponentInfo& info(Kind kind, const std::string& name) const;

  // The loaded packs' names, in load order, and what one of them registers (for tests that walk
  // every component: tests/contract). components() throws Error for a pack that is not loaded.
  std::vector<std::string> packs() const;
  const std::vector<ComponentInfo>& components(const std::string& pack) const;

  template <class T>
  std::shared_ptr<T> make(const std::string& name, const std::map<std::string, Value>& overrides,
                          const DataSpec& data = {}, std::uint64_t seed = 1,
                          const FeatureSet* features = nullptr) {
    auto [made, library] = create(T::kind_id, name, overrides, data, seed, features);
    // The deleter holds the library: the object's destructor is the plugin's code.
    return std::shared_ptr<T>(static_cast<T*>(made.release()), [library = std::move(library)](T* p) { delete p; });
  }

 private:
  struct Library;
  std::pair<std::unique_ptr<Component>, std::shared_ptr<const void>> create(
      Kind kind, const std::string& name, const std::map<std::string, Value>& overrides, const DataSpec& data,
      std::uint64_t seed, const FeatureSet* features);
  std::pair<const ComponentInfo*, const Library*> find(Kind kind, const std::string& name) const;
  bool has(Kind kind, const std::string& name) const;
  // A built-in activation's name, or a loaded pack's activation: a layer of that name is std's `activation`.
  bool names_activation(const std::string& name) const;

  std::vector<std::shared_ptr<Library>> libraries_;
};

// The harness holding this built pack alone, loaded on the first call and kept for the test process:
// every test of a pack (and every pack's tests of std) asks for it instead of loading its own.
Harness& pack(const std::string& library_path);

}  // namespace featurelab::testing
