// featurelab/parallel_product.hpp: the blocked products equal the plain product in both layouts the
// models use (Z = X·Wᵀ and ∇W = Gᵀ·X), for = and +=, at shapes on both sides of the build kernel's
// thresholds (with -DFEATURELAB_BLAS=blis some blocks go to BLIS through CBLAS, whose transposition
// and leading-dimension arguments this checks), and give the same bits on one, two and three threads.
#include "random_matrices.hpp"

#include <featurelab/parallel_product.hpp>

#include <catch2/catch.hpp>

#include <tuple>

using namespace featurelab;

using featurelab::testing_inputs::random_matrix;

namespace {

// max |C − A·B| over max |A|·max |B|·inner, computed in double: rounding only, whichever kernel ran.
template <class Lhs, class Rhs>
double relative_error(const Mat& C, const Lhs& A, const Rhs& B) {
  const MatD exact = A.template cast<double>() * B.template cast<double>();
  const double scale = A.cwiseAbs().maxCoeff() * B.cwiseAbs().maxCoeff() * static_cast<double>(A.cols());
  return (C.cast<double>() - exact).cwiseAbs().maxCoeff() / scale;
}

constexpr double kTolerance = kDouble ? 1e-13 : 1e-5;

}  // namespace

TEST_CASE("parallel products equal the plain product in both layouts, small and large, = and +=") {
  // rows × inner × cols: an inner dimension of 2 (Frei et al.'s inputs), 20 (patches), 64, 128 and 500,
  // and blocks split in 1, 2 and 4 (above 4 MFLOP with 256 or more rows or columns).
  const std::tuple<Index, Index, Index> shapes[] = {{500, 2, 300}, {300, 20, 100}, {64, 64, 128}, {40, 128, 40},
                                                    {600, 500, 300}, {1100, 300, 700}, {7, 3, 5}};
  for (const auto& [rows, inner, cols] : shapes) {
    const Mat X = random_matrix(rows, inner, 1);   // Z = X·Wᵀ: X row-major, Wᵀ a column-major view
    const Mat W = random_matrix(cols, inner, 2);
    Mat Z(rows, cols);
    parallel_product_rows(Z, X, W.transpose());
    CHECK(relative_error(Z, X, W.transpose()) < kTolerance);
    const Mat Z0 = Z;
    parallel_product_rows_add(Z, X, W.transpose());
    CHECK(relative_error(Z - Z0, X, W.transpose()) < 2 * kTolerance);

    const Mat G = random_matrix(inner, rows, 3);  // ∇W = Gᵀ·X: Gᵀ a column-major view, X row-major
    const Mat Y = random_matrix(inner, cols, 4);
    Mat gW(rows, cols);
    parallel_product_cols(gW, G.transpose(), Y);
    CHECK(relative_error(gW, G.transpose(), Y) < kTolerance);
    const Mat gW0 = gW;
    parallel_product_cols_add(gW, G.transpose(), Y);
    CHECK(relative_error(gW - gW0, G.transpose(), Y) < 2 * kTolerance);
  }
}

TEST_CASE("parallel products give the same bits on one, two and three threads") {
  const Mat X = random_matrix(1100, 300, 5), W = random_matrix(700, 300, 6), G = random_matrix(300, 1100, 7),
            Y = random_matrix(300, 700, 8);
  auto run = [&](int threads) {
    set_job_threads(threads);
    Mat Z(1100, 700), gW(1100, 700);
    parallel_product_rows(Z, X, W.transpose());
    parallel_product_cols(gW, G.transpose(), Y);
    set_job_threads(1);
    return std::make_pair(Z, gW);
  };
  const auto one = run(1), two = run(2), three = run(3);
  CHECK(one.first == two.first);
  CHECK(one.first == three.first);
  CHECK(one.second == two.second);
  CHECK(one.second == three.second);
}
