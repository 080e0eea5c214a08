// What every component shares: its kind, the context it is created with, and the data spec.
#pragma once

#include <featurelab/dataset.hpp>
#include <featurelab/params.hpp>
#include <featurelab/rng.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace featurelab {

class ActivationFunction;
class Component;

enum class Kind {
  Distribution, Transform, Augment, Model, Loss, Optimizer, Trainer, Probe, Attack, Regularizer, Activation, Layer,
  Callback
};

inline constexpr Kind kAllKinds[] = {Kind::Distribution, Kind::Transform, Kind::Augment,
                                     Kind::Model,        Kind::Loss,      Kind::Optimizer,
                                     Kind::Trainer,      Kind::Probe,     Kind::Attack,
                                     Kind::Regularizer,  Kind::Activation, Kind::Layer,
                                     Kind::Callback};

const char* to_string(Kind kind);
bool parse_kind(const std::string& text, Kind& out);

// What the data looks like after the distribution and transforms; models size themselves by it.
struct DataSpec {
  Index dim = 0;        // D
  int classes = 0;      // number of classes (2 for binary); 0: no class labels (regression on T, every y 0)
  Index target_cols = 0;  // columns of Dataset::T, 0 if labels only
  DataShape shape;
  std::vector<std::string> meta;  // metadata columns every sample carries
};

// A component's documentation, and the file that declares it (the default argument is evaluated
// where kDoc is written: `static constexpr Doc kDoc = "...";` in the component's header), so
// `featurelab describe` names the source without the component saying it twice.
struct Doc {
  const char* text;
  const char* file;
  // NOLINTNEXTLINE(google-explicit-constructor): kDoc is written as a plain string literal.
  constexpr Doc(const char* doc_text, const char* declared_in = __builtin_FILE()) : text(doc_text), file(declared_in) {}
  constexpr operator const char*() const { return text; }
};

// Handed to each component's constructor by the core.
struct Context {
  std::string name;               // its registry name ("two-layer"), for messages; set by the pack
  spdlog::logger* log = nullptr;  // the core's logger; never null in a run
  Rng rng;                        // this component's own stream, seeded from (job seed, path)
  std::string path;               // where it sits in the pipeline: "model", "probe.2"
  DataSpec data;                  // the data as the component will see it (after transforms)
  Index total_steps = 0;          // training steps, for schedules
  // The distribution's ground-truth features (null before the distribution exists): models use
  // them for theory-prescribed initialisations (warm starts along a feature).
  const FeatureSet* features = nullptr;
  // Builds a pack's activation by name (kind "activation", from its defaults), for models whose
  // `activation` parameter names one that is not built in (activation.hpp). Null where no
  // catalog is at hand: then only the built-in activations exist.
  std::function<std::shared_ptr<const ActivationFunction>(const std::string& name)> make_activation;
  // Builds a sub-component written in this one's parameters (a Components parameter's entry, e.g. a
  // network's layer) as a component of `kind`; its random stream derives from the job's seed and
  // spec.path. Null where no catalog is at hand. make_sub<T>() below is the typed call.
  std::function<std::shared_ptr<Component>(Kind kind, const ComponentSpec& spec)> make_component;
  // The bytes the job may commit: its memory limit (--job-memory) where one is in force, else the
  // machine's memory; 0 = unknown. A model whose size the pipeline sets (a network) refuses to be built
  // past it, naming its largest layers, instead of failing in the allocator.
  double memory_bytes = 0;
};

class Component {
 public:
  virtual ~Component() = default;
  Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  // The registry name it was created under ("two-layer"); empty for one built directly in a test.
  const std::string& name() const { return name_; }

 private:
  friend class PackBuilder;  // names what it creates
  std::string name_;
};

// A sub-component of T's kind from its spec, through context.make_component (the core checked that
// the entry names a component of that kind, so the cast is safe). Throws Error where none can be made.
template <class T>
std::shared_ptr<T> make_sub(const Context& context, const ComponentSpec& spec);

void refuse_sub_component(const Context& context, const ComponentSpec& spec);  // throws Error

template <class T>
std::shared_ptr<T> make_sub(const Context& context, const ComponentSpec& spec) {
  if (!context.make_component) refuse_sub_component(context, spec);
  return std::static_pointer_cast<T>(context.make_component(T::kind_id, spec));
}

}  // namespace featurelab
