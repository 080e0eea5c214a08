// Kind names as they appear in pipelines, manifests and messages.
#include <featurelab/component.hpp>
#include <featurelab/error.hpp>

namespace featurelab {

const char* to_string(Kind kind) {
  switch (kind) {
    case Kind::Distribution: return "distribution";
    case Kind::Transform: return "transform";
    case Kind::Augment: return "augment";
    case Kind::Model: return "model";
    case Kind::Loss: return "loss";
    case Kind::Optimizer: return "optimizer";
    case Kind::Trainer: return "trainer";
    case Kind::Probe: return "probe";
    case Kind::Attack: return "attack";
    case Kind::Regularizer: return "regularizer";
    case Kind::Activation: return "activation";
    case Kind::Layer: return "layer";
    case Kind::Callback: return "callback";
  }
  return "?";
}

bool parse_kind(const std::string& text, Kind& out) {
  for (Kind kind : kAllKinds) {
    if (text == to_string(kind)) {
      out = kind;
      return true;
    }
  }
  return false;
}

void refuse_sub_component(const Context& context, const ComponentSpec& spec) {
  throw Error((context.name.empty() ? std::string("this component") : "'" + context.name + "'") + " cannot build " +
              spec.use + " (" + spec.path + ") here: no catalog is at hand (build it through the core, "
              "featurelab::testing::Harness or the contract test)");
}

}  // namespace featurelab
