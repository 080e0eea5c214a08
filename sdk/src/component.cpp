// Kind names as they appear in pipelines, manifests and messages.
#include <featurelab/component.hpp>

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

}  // namespace featurelab
