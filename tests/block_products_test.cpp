// featurelab/block_products.hpp: attention's block products give Eigen's bits at every shape they accept, for = and
// +=, with transposed operands and row strides wider than the blocks (as attention's per-head blocks of Q, K, V);
// and they accept the shapes of fourier-icl's transformers (else those would keep paying for Eigen's packing).
#include "random_matrices.hpp"

#include <featurelab/block_products.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;
namespace blocks = featurelab::block_products;

using featurelab::testing_inputs::random_matrix;

TEST_CASE("block products give Eigen's bits at every shape they take, for = and +=, from transposed blocks") {
  Index taken = 0, differing = 0;
  for (Index rows = 2; rows <= 32; ++rows) {
    for (Index cols = 4; cols <= 28; cols += 4) {
      for (Index depth = 1; depth <= blocks::kMaxDepth; ++depth) {
        if (!blocks::reproduces(rows, cols, depth)) continue;
        ++taken;
        // L a block of a wider matrix; R the transpose of a block (as K_hᵀ); Z a block of a wider matrix.
        const Mat Lw = random_matrix(rows, depth + 3, static_cast<std::uint64_t>(rows * 10000 + cols * 100 + depth));
        const Mat Rw = random_matrix(cols + 2, depth, static_cast<std::uint64_t>(rows * 10000 + cols * 100 + depth + 1));
        const Mat start = random_matrix(rows, cols + 5, 7);
        const auto L = Lw.middleCols(1, depth);
        const auto R = Rw.topRows(cols).transpose();
        Mat eigen = start, ours = start;
        eigen.leftCols(cols).noalias() = L * R;
        blocks::times<false>(ours.leftCols(cols), L, R);
        Mat eigen_added = start, ours_added = start;
        eigen_added.leftCols(cols).noalias() += L * R;
        blocks::times<true>(ours_added.leftCols(cols), L, R);
        // The transposed left operand (as P_hᵀ dO_h).
        const Mat Lt = L.transpose();
        Mat eigen_t = start, ours_t = start;
        eigen_t.leftCols(cols).noalias() = Lt.transpose() * R;
        blocks::times<false>(ours_t.leftCols(cols), Lt.transpose(), R);
        const bool same = (eigen.array() == ours.array()).all() && (eigen_added.array() == ours_added.array()).all() &&
                          (eigen_t.array() == ours_t.array()).all();
        if (!same) {
          ++differing;
          UNSCOPED_INFO("differs at " << rows << " × " << cols << " × depth " << depth);
        }
      }
    }
  }
  CHECK(differing == 0);
  CHECK(taken > 1000);  // the vectorised builds take thousands of shapes; see below for the ones that matter
}

TEST_CASE("block products take the attention shapes of fourier-icl's transformers, and leave the rest to Eigen") {
#ifdef EIGEN_VECTORIZE
  // T = 4 tokens, a = 16 per head (modular-transformer's k = 2 arm): S = Q Kᵀ, dP = dO Vᵀ (4×4, depth 16) and
  // O = P V, dQ = dS K, dK = dSᵀ Q, dV = Pᵀ dO (4×16, depth 4) where a fits the registers.
  CHECK(blocks::reproduces(4, 4, 16));
  CHECK(blocks::reproduces(4, 16, 4) == (16 <= blocks::kMaxColumns));
#endif
  CHECK_FALSE(blocks::reproduces(4, 4, 4));   // Eigen's coefficient-wise product below 20 (rows + cols + depth)
  CHECK_FALSE(blocks::reproduces(1, 16, 16)); // a vector: Eigen's matrix-vector product
  CHECK_FALSE(blocks::reproduces(8, 6, 16));  // columns not whole quarter registers
  CHECK_FALSE(blocks::reproduces(8, 8, blocks::kMaxDepth + 1));
  // An empty Mat takes the product's shape, as with Eigen's = (the transformer's dP scratch starts empty).
  const Mat Q = random_matrix(4, 16, 3), K = random_matrix(4, 16, 4);
  Mat scores, eigen_scores;
  blocks::times<false>(scores, Q, K.transpose());
  eigen_scores.noalias() = Q * K.transpose();
  CHECK(scores == eigen_scores);
  // Not taken: still the right product (Eigen's).
  const Mat L = random_matrix(5, 3, 1), R = random_matrix(3, 6, 2);
  Mat Z(5, 6), eigen(5, 6);
  blocks::times<false>(Z, L, R);
  eigen.noalias() = L * R;
  CHECK(Z == eigen);
}
