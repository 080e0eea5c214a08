// Kind -> interface id, read from the SDK headers the core itself is compiled with.
#include "kernel/loader/interface_ids.hpp"

#include <featurelab/activation.hpp>
#include <featurelab/attack.hpp>
#include <featurelab/augment.hpp>
#include <featurelab/distribution.hpp>
#include <featurelab/layer.hpp>
#include <featurelab/loss.hpp>
#include <featurelab/model.hpp>
#include <featurelab/optimizer.hpp>
#include <featurelab/probe.hpp>
#include <featurelab/callback.hpp>
#include <featurelab/regularizer.hpp>
#include <featurelab/trainer.hpp>
#include <featurelab/transform.hpp>

namespace featurelab {

const char* core_interface_id(Kind kind) {
  switch (kind) {
    case Kind::Distribution: return Distribution::interface_id;
    case Kind::Transform: return Transform::interface_id;
    case Kind::Augment: return Augment::interface_id;
    case Kind::Model: return Model::interface_id;
    case Kind::Loss: return Loss::interface_id;
    case Kind::Optimizer: return Optimizer::interface_id;
    case Kind::Trainer: return Trainer::interface_id;
    case Kind::Probe: return Probe::interface_id;
    case Kind::Attack: return Attack::interface_id;
    case Kind::Regularizer: return Regularizer::interface_id;
    case Kind::Activation: return ActivationFunction::interface_id;
    case Kind::Layer: return Layer::interface_id;
    case Kind::Callback: return Callback::interface_id;
  }
  return "?";
}

std::string interface_mismatch(Kind kind, const std::string& name, const std::string& interface_id) {
  const std::string expected = core_interface_id(kind);
  if (interface_id == expected) return {};
  return std::string(to_string(kind)) + " '" + name + "' implements " +
         (interface_id.empty() ? std::string("no interface id") : interface_id) + ", this featurelab calls " +
         expected;
}

}  // namespace featurelab
