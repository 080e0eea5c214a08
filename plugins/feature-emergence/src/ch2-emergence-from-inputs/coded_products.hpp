// The two products of a first layer W (m×D) with inputs given as codes, X = C·B (featurelab/dataset.hpp; C: n×r,
// B: r×D), as truncated-two-layer and ntk-two-layer take them (CodedInputs): r/D of the direct products' arithmetic.
#pragma once

#include <featurelab/dataset.hpp>
#include <featurelab/parallel_product.hpp>

namespace featurelab::feature_emergence_pack {

// Z (n×m) = X·Wᵀ = C·(B·Wᵀ); by_w (r×m) keeps B·Wᵀ.
template <class Dst, class Weights>
void coded_preactivations(Dst&& Z, const Batch& batch, const Weights& W, Mat& by_w) {
  by_w.resize(batch.code_dim, W.rows());
  parallel_product_rows(by_w, *batch.code_basis, W.transpose());
  parallel_product_rows(Z, batch.Codes(), by_w);
}

// gW (m×D) = Gᵀ·X = (Gᵀ·C)·B for G (n×m); by_codes (m×r) keeps Gᵀ·C.
template <class Dst>
void coded_weight_gradient(Dst&& gW, ConstMatRef G, const Batch& batch, Mat& by_codes) {
  by_codes.resize(G.cols(), batch.code_dim);
  parallel_product_cols(by_codes, G.transpose(), batch.Codes());
  parallel_product_cols(gW, by_codes, *batch.code_basis);
}

}  // namespace featurelab::feature_emergence_pack
