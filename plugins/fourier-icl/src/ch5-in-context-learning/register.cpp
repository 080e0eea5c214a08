// Chapter 5: in-context learning, linear regression with linear self-attention (§5.4) and sparse parity with
// multi-head ReLU attention (§5.5).
#include "chapters.hpp"
#include "icl_linear_regression.hpp"
#include "icl_loss_vs_rank.hpp"
#include "icl_sparse_parity.hpp"
#include "linear_self_attention.hpp"
#include "multihead_relu_attention.hpp"
#include "parity_coverage.hpp"
#include "parity_noise_projection.hpp"

namespace featurelab::fourier_icl_pack {

void add_in_context_learning(PackBuilder& pack) {
  pack.add<IclLinearRegression>("icl-linear-regression");
  pack.add<LinearSelfAttention>("linear-self-attention");
  pack.add<IclLossVsRank>("icl-loss-vs-rank");
  pack.add<IclSparseParity>("icl-sparse-parity");
  pack.add<MultiheadReluAttention>("multihead-relu-attention");
  pack.add<ParityCoverage>("parity-coverage");
  pack.add<ParityNoiseProjection>("parity-noise-projection");
}

}  // namespace featurelab::fourier_icl_pack
