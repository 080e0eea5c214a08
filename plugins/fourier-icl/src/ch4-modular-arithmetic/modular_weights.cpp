#include "modular_weights.hpp"

#include <featurelab/error.hpp>

namespace featurelab::fourier_icl_pack {

void modular_weights(const Model& model, const std::string& who, MatD& U, MatD& W, int& k) {
  const ParamBlock* ub = model.find_block("U");
  const ParamBlock* wb = model.find_block("W");
  if (!ub || !wb || wb->cols < 3 || ub->cols % wb->cols != 0 || ub->rows != wb->rows) {
    throw Error(who + " reads blocks U (m×kp) and W (m×p) of poly-one-hidden-layer (or fourier-max-margin)");
  }
  U = model.block("U").cast<double>();
  W = model.block("W").cast<double>();
  k = static_cast<int>(ub->cols / wb->cols);
}

}  // namespace featurelab::fourier_icl_pack
