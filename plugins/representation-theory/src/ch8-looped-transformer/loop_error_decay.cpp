#include "loop_error_decay.hpp"
#include "least_squares.hpp"
#include "looped_linear_transformer.hpp"

#include <featurelab/error.hpp>

#include <cmath>
#include <limits>

namespace featurelab::representation_theory_pack {

namespace {

// Float64 gradient descent can land on θ* to the last bit (e_t = 0 exactly: a few prompts in ten at n = 128). An exact
// hit is logged at the finest nonzero error float64 can express there, one ulp off in θ*'s smallest coordinate, so
// that means over prompts stay finite and on the scale of the floor; a NaN (a diverging loop) stays NaN and fails.
double resolution(const VecD& theta_star) {
  double finest = std::numeric_limits<double>::infinity();
  for (Index j = 0; j < theta_star.size(); ++j) {
    const double x = std::abs(theta_star(j));
    const double ulp = std::nextafter(x, std::numeric_limits<double>::infinity()) - x;
    finest = std::min(finest, ulp * ulp);
  }
  return finest;
}

Eigen::ArrayXd log_above(const Eigen::ArrayXd& values, double least) { return values.max(least).log(); }

// max over the entries, +∞ when any is not finite (Eigen's maxCoeff would skip a NaN).
double worst(const Eigen::ArrayXd& values) {
  return values.allFinite() ? values.maxCoeff() : std::numeric_limits<double>::infinity();
}

// Fig. 8.1 for one sweep point, as a table `featurelab plot` draws as a scatter (columns x, y, series): the measured
// curve at every loop and the two bounds as checked, each prompt's cut at the floor before the mean (a prompt at the
// floor keeps its bound there), drawn until they all reach it.
Table curve_table(const Eigen::ArrayXd& measured, const Eigen::ArrayXd& theory, const Eigen::ArrayXd& exact,
                  double log_floor) {
  static const char* kSeries[] = {"measured", "theory", "exact-gd"};
  std::vector<Eigen::RowVector3d> rows;
  for (Index s = 0; s < measured.size(); ++s) {
    const double x = static_cast<double>(s);
    rows.emplace_back(x, measured(s), 0.0);
    if (theory(s) > log_floor) rows.emplace_back(x, theory(s), 1.0);
    if (exact(s) > log_floor) rows.emplace_back(x, exact(s), 2.0);
  }
  Table curve;
  curve.col_names = {"x", "y", "series"};
  curve.values.resize(static_cast<Index>(rows.size()), 3);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    curve.values.row(static_cast<Index>(r)) = rows[r];
    curve.row_names.push_back(std::string(kSeries[static_cast<int>(rows[r](2))]) + " t=" +
                              std::to_string(static_cast<long>(rows[r](0))));
  }
  return curve;
}

}  // namespace

Schema LoopErrorDecay::schema() {
  Schema s;
  s.integers("at", {10, 20, 50, 100, 200}, "loops t at which to report ln e_t and the bounds as scalars (each ≤ model.loops)")
      .min(0);
  s.real("floor", 1e-28,
         "normalised squared error below which rounding, not gradient descent, sets the error (float64: about 1e-31)")
      .above(0)
      .below(1);
  return s;
}

LoopErrorDecay::LoopErrorDecay(const Params& params, Context&)
    : at_(params.integers("at")), floor_(params.real("floor")) {}

void LoopErrorDecay::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const LoopedLinearTransformer& model = as_looped_transformer(in.model, who);
  const auto prompts = read_prompts(in.test, who, true);
  if (prompts.empty()) throw Error(who + " measures the test prompts; set data.test >= 1");
  const Index T = model.loops();
  for (auto K : at_) {
    if (K > T) {
      throw Error(who + ".at: loop " + std::to_string(K) + " is beyond the model's " + std::to_string(T) +
                  " loops; lower it or raise model.loops");
    }
  }
  const Index n = model.prompt_shape().n, d = model.prompt_shape().d;
  const double log_floor = std::log(floor_);
  const Eigen::ArrayXd t = Eigen::ArrayXd::LinSpaced(T + 1, 0, static_cast<double>(T));
  // Means over the prompts at every loop: the measured ln e_t, the bounds, and the bounds as checked (cut at the floor).
  Eigen::ArrayXd mean_log = Eigen::ArrayXd::Zero(T + 1), mean_theory = mean_log, mean_exact = mean_log;
  Eigen::ArrayXd checked_theory = mean_log, checked_exact = mean_log;
  double theory_slack = -std::numeric_limits<double>::infinity(), exact_slack = theory_slack, pred_slack = theory_slack;
  double rate = 0, theory_rate = 0, exact_rate = 0, final_log = 0, pred_final = 0;
  double floor_level = -std::numeric_limits<double>::infinity();
  Index at_floor = 0;
  const double count = static_cast<double>(prompts.size());
  for (const auto& prompt : prompts) {
    const double alpha = prompt.Z(n, d);
    const double kappa = gram_spectrum(prompt.X()).kappa();
    const auto trace = model.unroll(prompt.Z);
    const MatD theta = -trace.q / alpha;  // (T+1)×d: θ^(t) = −q^(t)/α (Thm. 8.14)
    const Eigen::ArrayXd squared = (theta.rowwise() - prompt.theta_star.transpose()).rowwise().squaredNorm().array();
    const Eigen::ArrayXd log_err = log_above(squared / squared(0), resolution(prompt.theta_star) / squared(0));
    const Eigen::ArrayXd theory = -t / kappa;
    const Eigen::ArrayXd exact = t.unaryExpr([kappa](double s) { return log_exact_gd_bound(s, kappa); });
    // TF_t = −q^(t); the task error |⟨TF_t, θ*⟩ − α| relative to |α| (Def. 8.4, Thm. 8.16).
    const Eigen::ArrayXd pred = ((-trace.q * prompt.theta_star).array() - alpha).abs() / std::abs(alpha);
    // Loops 1 … T (at t = 0 every bound is an equality: e_0 = 1, the prediction error |α|).
    const auto later = [T](const Eigen::ArrayXd& a) { return a.tail(T); };
    theory_slack = std::max(theory_slack, worst(later(log_err - theory.max(log_floor))));
    exact_slack = std::max(exact_slack, worst(later(log_err - exact.max(log_floor))));
    const Eigen::ArrayXd log_pred = log_above(pred, std::numeric_limits<double>::denorm_min());
    pred_slack = std::max(pred_slack, worst(later(log_pred - (-t / (2 * kappa)).max(log_floor / 2))));
    Index reached = T;  // the first loop at the floor: the slope before it is gradient descent's, after it rounding's
    for (Index s = 1; s <= T; ++s) {
      if (squared(s) / squared(0) <= floor_) {
        reached = s;
        break;
      }
    }
    rate += log_err(reached) / static_cast<double>(reached) / count;
    theory_rate += -1 / kappa / count;
    exact_rate += log_exact_gd_bound(1, kappa) / count;
    final_log += log_err(T) / count;
    floor_level = std::max(floor_level, std::isnan(log_err(T)) ? std::numeric_limits<double>::infinity() : log_err(T));
    at_floor += squared(T) / squared(0) <= floor_;
    pred_final = std::max(pred_final, std::isfinite(pred(T)) ? pred(T) : std::numeric_limits<double>::infinity());
    mean_log += log_err / count;
    mean_theory += theory / count;
    mean_exact += exact / count;
    checked_theory += theory.max(log_floor) / count;
    checked_exact += exact.max(log_floor) / count;
  }
  for (auto K : at_) {
    const std::string at = ".t=" + std::to_string(K);
    out.scalar("log_err" + at, mean_log(K));
    out.scalar("theory" + at, mean_theory(K));
    out.scalar("exact_gd" + at, mean_exact(K));
  }
  out.scalar("theory_slack", theory_slack);
  out.scalar("exact_gd_slack", exact_slack);
  out.scalar("pred_slack", pred_slack);
  out.scalar("rate", rate);
  out.scalar("theory_rate", theory_rate);
  out.scalar("exact_gd_rate", exact_rate);
  out.scalar("log_err_final", final_log);
  out.scalar("floor_level", floor_level);
  out.scalar("at_floor", static_cast<double>(at_floor) / count);
  out.scalar("pred_err_final", pred_final);

  out.table("curve", curve_table(mean_log, checked_theory, checked_exact, log_floor));
}

}  // namespace featurelab::representation_theory_pack
