// Model `fourier-max-margin`: poly-one-hidden-layer (Shi 2024 ch. 4, Eq. 4.2) with the weights of the chapter's
// maximum-margin construction (Lemmas C.17/C.18; see fourier_construction.hpp) and width 2^{2k−2}(p−1).
#pragma once

#include "poly_one_hidden_layer.hpp"

namespace featurelab::fourier_icl_pack {

class FourierMaxMargin : public PolyOneHiddenLayer {
 public:
  static constexpr featurelab::Doc kDoc =
      "poly-one-hidden-layer with the maximum-L_{2,k+1}-margin weights of Shi 2024 Lemmas C.17/C.18: 2^{2k−2}(p−1) "
      "single-frequency neurons, f[y] − f[c] constant, normalised margin exactly γ*(k, p).";
  static featurelab::Schema schema();
  FourierMaxMargin(const featurelab::Params& params, featurelab::Context& context);
  void init(featurelab::Rng& rng) override;

 private:
  double scale_;
};

}  // namespace featurelab::fourier_icl_pack
