#include "gd_equivalence.hpp"
#include "least_squares.hpp"
#include "looped_linear_transformer.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace featurelab::representation_theory_pack {

namespace {

// Entries whose bits differ (== would call −0 and +0 equal; the claim is that the mask leaves rows untouched).
Index bitwise_differences(const MatD& a, const MatD& b) {
  Index count = 0;
  for (Index i = 0; i < a.rows(); ++i) {
    for (Index j = 0; j < a.cols(); ++j) count += std::memcmp(&a(i, j), &b(i, j), sizeof(double)) != 0;
  }
  return count;
}

// A non-finite difference (a diverging loop) must fail the checks, not vanish in std::max.
double finite_or_inf(double v) { return std::isfinite(v) ? v : std::numeric_limits<double>::infinity(); }

// Lemma 8.13: Attn(Z; I, diag(I, 0)) = [[0, 0], [qᵀXᵀX + αyᵀX, 0]] for Z = [[X, y], [qᵀ, α]].
MatD lemma_closed_form(const MatD& Z) {
  const Index n = Z.rows() - 1, d = Z.cols() - 1;
  const MatD X = Z.topLeftCorner(n, d);
  const VecD y = Z.col(d).head(n);
  const Eigen::RowVectorXd q = Z.row(n).head(d);
  MatD closed = MatD::Zero(n + 1, d + 1);
  closed.row(n).head(d) = q * X.transpose() * X + Z(n, d) * y.transpose() * X;
  return closed;
}

}  // namespace

void GdEquivalence::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const LoopedLinearTransformer& model = as_looped_transformer(in.model, who);
  const auto prompts = read_prompts(in.test, who, false);
  if (prompts.empty()) throw Error(who + " measures the test prompts; set data.test >= 1");
  const Index n = model.prompt_shape().n, d = model.prompt_shape().d;
  double max_diff = 0, max_rel = 0, lemma = 0;
  Index rows_changed = 0, alpha_changed = 0, outside = 0;
  Table table;
  table.values.resize(static_cast<Index>(prompts.size()), 4);
  table.col_names = {"rel_diff", "rows_changed", "alpha_changed", "eta"};
  for (std::size_t s = 0; s < prompts.size(); ++s) {
    const MatD& Z0 = prompts[s].Z;
    const double alpha = Z0(n, d), eta = model.step_size(Z0);
    const auto trace = model.unroll(Z0);
    const MatD theta = gd_trajectory(Z0.topLeftCorner(n, d), Z0.col(d).head(n), -Z0.row(n).head(d).transpose() / alpha,
                                     eta, model.loops());
    const double diff = finite_or_inf((-trace.q - alpha * theta).cwiseAbs().maxCoeff());  // TF_t = −q^(t) against αθ^(t), all t
    const Index rows = bitwise_differences(trace.Z.topRows(n), Z0.topRows(n));
    const Index cell = std::memcmp(&trace.Z(n, d), &Z0(n, d), sizeof(double)) != 0;
    for (const MatD* Z : {&Z0, &trace.Z}) {
      const MatD attn = model.attention(*Z), closed = lemma_closed_form(*Z);
      lemma = std::max(lemma, finite_or_inf((attn - closed).cwiseAbs().maxCoeff() / std::max(1.0, closed.cwiseAbs().maxCoeff())));
      MatD rest = attn;
      rest.row(n).head(d).setZero();
      outside += (rest.array() != 0).count();
    }
    max_diff = std::max(max_diff, diff);
    max_rel = std::max(max_rel, diff / std::abs(alpha));
    rows_changed += rows;
    alpha_changed += cell;
    const auto row = static_cast<Index>(s);
    table.values.row(row) << diff / std::abs(alpha), static_cast<double>(rows), static_cast<double>(cell), eta;
    table.row_names.push_back("prompt " + std::to_string(s));
  }
  out.scalar("max_diff", max_diff);
  out.scalar("max_rel_diff", max_rel);
  out.scalar("rows_changed", static_cast<double>(rows_changed));
  out.scalar("alpha_changed", static_cast<double>(alpha_changed));
  out.scalar("lemma_diff", lemma);
  out.scalar("attn_outside", static_cast<double>(outside));
  out.table("prompts", std::move(table));
}

}  // namespace featurelab::representation_theory_pack
