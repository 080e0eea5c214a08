#include "probe_inputs.hpp"

#include <featurelab/error.hpp>

namespace featurelab::contrastive_decoupling_pack {

Mat codes(const Dataset& data, Index d, const std::string& who) {
  Mat Z(data.size(), d);
  for (Index j = 0; j < d; ++j) {
    auto it = data.meta.find("z" + std::to_string(j));
    if (it == data.meta.end()) {
      throw Error(who + " needs each sample's sparse code (meta columns z0..z" + std::to_string(d - 1) +
                  ", from the sparse-coding distribution)");
    }
    Z.col(j) = it->second.cast<Scalar>();
  }
  return Z;
}

Schema hook_schema() {
  Schema s;
  s.string("hook", "", "the representation: empty for the model's output, or a hook point (\"hidden.post\")");
  return s;
}

void represent(Model& model, const std::string& hook, ConstMatRef X, Mat& out) {
  if (!hook.empty()) {
    model.hook(hook, X, out);
    return;
  }
  out.resize(X.rows(), model.outputs());
  model.forward(X, out);
}

Mat weights(const Model& model, Index dim, const std::string& who) {
  const ParamBlock* wb = model.find_block("W");
  if (!wb) throw Error(who + " reads the neurons' weights: a model with block W (one row per neuron)");
  if (wb->cols != dim) {
    throw Error(who + ": the model's W has " + std::to_string(wb->cols) + " columns but the dictionary's atoms have " +
                std::to_string(dim) + " coordinates");
  }
  return model.block("W");
}

}  // namespace featurelab::contrastive_decoupling_pack
