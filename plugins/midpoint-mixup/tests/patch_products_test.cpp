// patch_products.hpp, the fused step's two register-tiled products, against Eigen's at shapes that
// reach every remainder: rows beside whole tiles of rows, strips beside whole tiles of strips, inputs
// beside whole tiles of inputs, and km that is not a whole number of strips.
#include "../src/patch_products.hpp"

#include <featurelab/rng.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace featurelab;
namespace patch = featurelab::midpoint_mixup_pack::patch;

TEST_CASE("patch products equal Eigen's at every remainder of rows, strips and inputs") {
  Rng rng(11);
  for (const Index rows : {Index(1), Index(5), Index(6), Index(13), Index(256)}) {
    for (const Index dim : {Index(1), Index(7), Index(10), Index(20), Index(23)}) {
      for (const Index km : {Index(1), Index(16), Index(20), Index(47), Index(100), Index(130)}) {
        const Index ldw = patch::padded_width(km);
        Mat X(rows, dim), W(km, dim), G = Mat::Zero(rows, ldw);
        rng.fill_normal(X);
        rng.fill_normal(W);
        Mat Gk(rows, km);
        rng.fill_normal(Gk);
        G.leftCols(km) = Gk;
        Mat Wt = Mat::Zero(dim, ldw);
        Wt.leftCols(km) = W.transpose();
        Mat Z = Mat::Constant(rows, ldw, Scalar(7));  // every element written, the padding with 0
        patch::times_transpose(X.data(), rows, dim, Wt.data(), ldw, Z.data());
        const Mat expected_Z = X * W.transpose();
        // ∇Wᵀ accumulates: start from a known matrix.
        Mat dWt = Mat::Zero(dim, ldw);
        Mat start(dim, km);
        rng.fill_normal(start);
        dWt.leftCols(km) = start;
        patch::add_transpose_times(X.data(), rows, dim, G.data(), ldw, dWt.data());
        const Mat expected_dWt = start + X.transpose() * Gk;
        INFO("rows " << rows << ", d " << dim << ", km " << km);
        const Scalar tol = Scalar(1e-5) * Scalar(std::sqrt(double(std::max(rows, dim))));
        CHECK((Z.leftCols(km) - expected_Z).cwiseAbs().maxCoeff() <= tol * std::max(Scalar(1), expected_Z.cwiseAbs().maxCoeff()));
        if (ldw > km) CHECK(Z.rightCols(ldw - km).cwiseAbs().maxCoeff() == Scalar(0));
        CHECK((dWt.leftCols(km) - expected_dWt).cwiseAbs().maxCoeff() <=
              tol * std::max(Scalar(1), expected_dWt.cwiseAbs().maxCoeff()));
        if (ldw > km) CHECK(dWt.rightCols(ldw - km).cwiseAbs().maxCoeff() == Scalar(0));
      }
    }
  }
}
