#include "first_layer.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::feature_emergence_pack {

Mat first_layer(const Model& model, const std::string& who) {
  if (model.find_block("W")) return model.block("W");
  if (model.find_block("W0") && model.find_block("dW")) return model.block("W0") + model.block("dW");
  throw Error(who + " reads the first layer: a model with block W (or W0 and dW)");
}

namespace detail {

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace detail

}  // namespace featurelab::feature_emergence_pack
