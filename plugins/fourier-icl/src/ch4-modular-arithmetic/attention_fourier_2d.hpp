// Probe of trained transformers on modular addition (Shi 2024 ch. 4, Fig. 4.3):
//   attention-fourier-2d   for each head h of layer `layer`, the token-space attention matrix
//     A_h = E_num W_q^h W_k^hᵀ E_numᵀ (p×p; E_num = the embedding rows of the numbers 0 … p−1, token ids 2 … p+1;
//     positions and LayerNorm left out, as the chapter's figures), centred, and its 2-D DFT power |Â_h(j1, j2)|²:
//     the fraction of the power in its 4 largest bins (a product of two cosines has 4 symmetric peaks). Over the
//     heads with ‖A_h‖ >= 0.1·max_h ‖A_h‖: top4_mean, top4_min, sparse_heads (the fraction with top4 >= 0.5, our
//     threshold for Fig. 4.3's pictures); table `heads`: per head [norm, top4, dominant j1, dominant j2]; at the
//     first and the last step, tables `power.head<h>`: the max-normalised 2-D power spectrum (p×p, frequencies j1 × j2).
#pragma once

#include "common/contract_setups.hpp"

#include <featurelab/probe.hpp>

#include <string>
#include <vector>

namespace featurelab::fourier_icl_pack {

class AttentionFourier2d : public featurelab::Probe {
 public:
  static constexpr featurelab::Doc kDoc =
      "Per attention head, the 2-D DFT of the token-space matrix E_num W_q W_kᵀ E_numᵀ: fraction of power in the top 4 "
      "bins and the dominant frequencies (Shi 2024 Fig. 4.3).";
  static featurelab::Schema schema();
  static std::vector<std::string> metrics() { return {"top4_mean", "top4_min", "sparse_heads"}; }
  static featurelab::ContractData contract_data() { return modular_transformer_contract(); }
  AttentionFourier2d(const featurelab::Params& params, featurelab::Context& context);
  void measure(const featurelab::ProbeInput& in, featurelab::Measurements& out) override;

 private:
  featurelab::Index layer_;
  featurelab::Index total_steps_;
};

}  // namespace featurelab::fourier_icl_pack
