// featurelab/tiled_products.hpp: the register-tiled products equal Eigen's for = and +=, with row strides
// wider than the matrices (blocks of larger ones, as the transformer's [dQ dK dV] columns), at every
// remainder of rows, strips and inputs; and each output is the same bits whatever block of rows it is
// computed in (its sum does not depend on the tiling).
#include "random_matrices.hpp"

#include <featurelab/tiled_products.hpp>

#include <catch2/catch.hpp>

using namespace featurelab;
namespace tiled = featurelab::tiled_products;

using featurelab::testing_inputs::random_matrix;

namespace {

// max |C − exact| over max |A|·max |B|·inner, the exact product in double.
double tiled_products_error(const Mat& C, const MatD& exact, double scale) {
  return (C.cast<double>() - exact).cwiseAbs().maxCoeff() / scale;
}

}  // namespace

TEST_CASE("tiled products equal Eigen's for = and +=, at row strides wider than the matrices, at every remainder") {
  const double tol = std::is_same_v<Scalar, float> ? 1e-6 : 1e-14;
  const Index lanes = tiled::kLanes;
  for (const Index rows : {Index(1), Index(5), Index(7), Index(13), Index(128)}) {
    for (const Index dim : {Index(1), Index(9), Index(11), Index(64), Index(192)}) {
      for (const Index strips : {Index(1), Index(2), Index(3), Index(4), Index(5), Index(8)}) {
        const Index cols = strips * lanes;
        INFO("rows " << rows << ", inner " << dim << ", cols " << cols);
        // Each operand a block of a wider matrix: its row stride is not its width.
        const Mat Xw = random_matrix(rows, dim + 3, 1), Ww = random_matrix(dim, cols + lanes, 2);
        const Mat start = random_matrix(rows, cols, 3);
        const auto X = Xw.leftCols(dim);
        const auto W = Ww.rightCols(cols);
        const MatD exact = X.cast<double>() * W.cast<double>();
        const double scale = X.cwiseAbs().maxCoeff() * W.cwiseAbs().maxCoeff() * static_cast<double>(dim);
        Mat Zw = Mat::Constant(rows, cols + 5, Scalar(7));
        auto Z = Zw.middleCols(2, cols);
        tiled::times<false>(X.data(), Xw.cols(), rows, dim, W.data(), Ww.cols(), Z.data(), Zw.cols(), cols);
        CHECK(tiled_products_error(Z, exact, scale) <= tol);
        CHECK((Zw.leftCols(2).array() == Scalar(7)).all());  // nothing outside the block written
        CHECK((Zw.rightCols(3).array() == Scalar(7)).all());
        Z = start;
        tiled::times<true>(X.data(), Xw.cols(), rows, dim, W.data(), Ww.cols(), Z.data(), Zw.cols(), cols);
        CHECK(tiled_products_error(Z, start.cast<double>() + exact, scale) <= tol);
        // Rows computed in a different block of rows (another tiling): the same bits.
        if (rows > 1) {
          Mat Zrow(1, cols);
          tiled::times<false>(X.data() + (rows - 1) * Xw.cols(), Xw.cols(), 1, dim, W.data(), Ww.cols(), Zrow.data(), cols, cols);
          tiled::times<false>(X.data(), Xw.cols(), rows, dim, W.data(), Ww.cols(), Z.data(), Zw.cols(), cols);
          CHECK(Zrow.row(0) == Z.row(rows - 1));
        }
        // ∇W += Xᵀ G: X rows × dim, G rows × cols, ∇W dim × cols, accumulating onto a known start.
        const Mat Gw = random_matrix(rows, cols + lanes, 4), dstart = random_matrix(dim, cols, 5);
        const auto G = Gw.leftCols(cols);
        Mat dWw = Mat::Constant(dim, cols + 1, Scalar(7));
        auto dW = dWw.leftCols(cols);
        dW = dstart;
        tiled::add_transpose_times(X.data(), Xw.cols(), rows, dim, G.data(), Gw.cols(), dW.data(), dWw.cols(), cols);
        const MatD dexact = dstart.cast<double>() + X.transpose().cast<double>() * G.cast<double>();
        const double dscale = X.cwiseAbs().maxCoeff() * G.cwiseAbs().maxCoeff() * static_cast<double>(rows);
        CHECK(tiled_products_error(dW, dexact, std::max(dscale, 1.0)) <= tol);
        CHECK((dWw.rightCols(1).array() == Scalar(7)).all());
      }
    }
  }
  CHECK(tiled::fits_strips(4 * lanes));
  CHECK_FALSE(tiled::fits_strips(lanes + 1));
  CHECK_FALSE(tiled::fits_strips(0));
}
