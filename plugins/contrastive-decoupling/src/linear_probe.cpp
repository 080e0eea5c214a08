// Ridge by a Cholesky (LDLT) solve of the D×D normal equations; logistic by damped Newton steps, each one
// D×D Cholesky solve, in double.
#include "linear_probe.hpp"
#include "probe_inputs.hpp"

#include <featurelab/error.hpp>

#include <Eigen/Cholesky>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace featurelab::contrastive_decoupling_pack {

namespace {

// 64-bit FNV-1a over the values' bytes, a word at a time: the key of the raw-input fits, whose inputs do not change
// between evaluations (measure()).
template <class Values>
std::uint64_t fingerprint(const Values& values, std::uint64_t h) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  const std::size_t size = static_cast<std::size_t>(values.size()) * sizeof(*values.data());
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    h = (h ^ word) * 0x100000001b3ULL;
  }
  for (; i < size; ++i) h = (h ^ bytes[i]) * 0x100000001b3ULL;
  return h;
}

// Keeps the rows with a nonzero target (classification ignores z = 0).
void nonzero_rows(const MatD& F, const VecD& y, MatD& Fo, VecD& yo) {
  const Index n = (y.array() != 0).count();
  Fo.resize(n, F.cols());
  yo.resize(n);
  for (Index i = 0, k = 0; i < F.rows(); ++i) {
    if (y(i) == 0) continue;
    Fo.row(k) = F.row(i);
    yo(k++) = y(i) > 0 ? 1.0 : -1.0;
  }
}

// Ridge-penalised logistic regression on centred features: min Σ log(1 + e^{−y(wᵀf + c)}) + (μ/2)‖w‖².
void logistic(const MatD& F, const VecD& y, double mu, VecD& w, double& c) {
  const Index D = F.cols();
  MatD A(F.rows(), D + 1);
  A.leftCols(D) = F;
  A.col(D).setOnes();
  VecD theta = VecD::Zero(D + 1);
  VecD penalty = VecD::Constant(D + 1, mu);
  penalty(D) = 0;
  auto objective = [&](const VecD& t) {
    const VecD margin = (A * t).cwiseProduct(y);
    double v = 0;
    for (Index i = 0; i < margin.size(); ++i) v += margin(i) > 0 ? std::log1p(std::exp(-margin(i))) : -margin(i) + std::log1p(std::exp(margin(i)));
    return v + 0.5 * t.cwiseProduct(penalty).dot(t);
  };
  double value = objective(theta);
  MatD H;
  for (int iter = 0; iter < 50; ++iter) {
    const VecD margin = (A * theta).cwiseProduct(y);
    const VecD sig = (1.0 + margin.array().exp()).inverse().matrix();  // σ(−margin)
    const VecD grad = -A.transpose() * sig.cwiseProduct(y) + penalty.cwiseProduct(theta);
    if (grad.norm() < 1e-8 * static_cast<double>(F.rows())) break;
    // The Hessian AᵀΛA + diag(μ) as a symmetric rank update of (Λ^{1/2}A)ᵀ (its lower half: half the product's
    // flops) and a blocked Cholesky: positive definite by the penalty (the raw fit at D = 2048 made this probe a
    // fifth of the augmentation sweep's job).
    const VecD root_weight = sig.cwiseProduct(VecD::Ones(sig.size()) - sig).cwiseSqrt();
    H.setZero(D + 1, D + 1);
    H.selfadjointView<Eigen::Lower>().rankUpdate((A.array().colwise() * root_weight.array()).matrix().transpose());
    H.diagonal() += penalty + VecD::Constant(D + 1, 1e-10);
    const VecD step = H.selfadjointView<Eigen::Lower>().llt().solve(grad);
    double t = 1;
    VecD next = theta - step;
    double next_value = objective(next);
    while (next_value > value && t > 1e-6) {
      t /= 2;
      next = theta - t * step;
      next_value = objective(next);
    }
    if (next_value > value) break;
    theta = next;
    if (value - next_value < 1e-12 * (1 + value)) break;
    value = next_value;
  }
  w = theta.head(D);
  c = theta(D);
}

}  // namespace

Schema LinearProbe::schema() {
  Schema s;
  s.string("hook", "", "the representation: empty for the model's output, or a hook point (\"hidden.post\")");
  s.string("target", "target", "the meta column to predict (sparse-coding: target = ⟨w*, z⟩)").non_empty();
  s.choice("task", "regression", {"regression", "classification"},
           "regression: ridge on the target (R²); classification: ridge logistic regression of its sign (accuracy), "
           "samples with target 0 excluded");
  s.real("ridge", 1e-3, "λ: the penalty is λ·tr(FᵀF)/D·‖w‖² (relative to the features' scale)").min(0);
  s.integers("labels", {}, "also fit on the first n training samples for each n here (metrics *.n<n>)").min(2);
  s.boolean("raw", true, "also fit on the raw inputs x (metrics *.raw)");
  s.boolean("only_final", false, "measure only after the last training step (the fits cost a D×D solve each)");
  return s;
}

LinearProbe::LinearProbe(const Params& params, Context& context)
    : hook_(params.str("hook")),
      target_(params.str("target")),
      classify_(params.str("task") == "classification"),
      raw_(params.boolean("raw")),
      only_final_(params.boolean("only_final")),
      ridge_(params.real("ridge")),
      total_steps_(context.total_steps) {
  for (auto n : params.integers("labels")) labels_.push_back(n);
  if (std::find(context.data.meta.begin(), context.data.meta.end(), target_) == context.data.meta.end()) {
    std::string have;
    for (const auto& m : context.data.meta) have += (have.empty() ? "" : ", ") + m;
    throw Error("linear-probe target = \"" + target_ + "\" is not a meta column of the data (it has: " +
                (have.empty() ? "none" : have) + ")");
  }
}

void LinearProbe::fit_and_score(const MatD& F, const VecD& y, Index n, const MatD& Ft, const VecD& yt,
                                const std::string& suffix, Measurements& out) const {
  const MatD Fn = F.topRows(n);
  const VecD yn = y.head(n);
  const VecD mean = Fn.colwise().mean().transpose();
  const MatD C = Fn.rowwise() - mean.transpose();
  const MatD Ct = Ft.rowwise() - mean.transpose();
  const double scale = std::max(C.squaredNorm() / static_cast<double>(C.cols()), 1e-300);
  if (!classify_) {
    const double ybar = yn.mean();
    MatD G = C.transpose() * C;
    G.diagonal().array() += ridge_ * scale + 1e-12 * scale;
    const VecD w = G.ldlt().solve(C.transpose() * (yn.array() - ybar).matrix());
    const VecD pred = (Ct * w).array() + ybar;
    const double mse = (pred - yt).squaredNorm() / static_cast<double>(yt.size());
    const double var = (yt.array() - yt.mean()).square().mean();
    out.scalar("r2" + suffix, 1 - mse / std::max(var, 1e-300));
    if (!suffix.empty() && suffix.find(".n") != std::string::npos) return;
    out.scalar("mse" + suffix, mse);
    double agree = 0, counted = 0;
    for (Index i = 0; i < yt.size(); ++i) {
      if (yt(i) == 0) continue;
      counted += 1;
      agree += (pred(i) > 0) == (yt(i) > 0) ? 1 : 0;
    }
    out.scalar("sign_accuracy" + suffix, counted > 0 ? agree / counted : std::nan(""));
    return;
  }
  MatD Co, Cto;
  VecD yo, yto;
  nonzero_rows(C, yn, Co, yo);
  nonzero_rows(Ct, yt, Cto, yto);
  if (Co.rows() < 2 || Cto.rows() < 1) throw Error("linear-probe: too few samples with a nonzero target to classify");
  VecD w;
  double c = 0;
  logistic(Co, yo, ridge_ * scale, w, c);
  const VecD score = (Cto * w).array() + c;
  out.scalar("accuracy" + suffix, ((score.array() > 0) == (yto.array() > 0)).cast<double>().mean());
}

void LinearProbe::measure(const ProbeInput& in, Measurements& out) {
  if (only_final_ && in.step != total_steps_) return;
  const std::string& who = name();
  if (in.train.size() < 2 || in.test.size() < 1) throw Error(who + " fits on the train split and scores on test: set data.train >= 2 and data.test >= 1");
  auto column = [&](const Dataset& data) -> const VecD& {
    auto it = data.meta.find(target_);
    if (it == data.meta.end()) throw Error(who + ": the samples carry no meta column \"" + target_ + "\"");
    return it->second;
  };
  const VecD& y = column(in.train);
  const VecD& yt = column(in.test);
  Mat f, ft;
  represent(in.model, hook_, in.train.X, f);
  represent(in.model, hook_, in.test.X, ft);
  const MatD F = f.cast<double>(), Ft = ft.cast<double>();
  const Index n = in.train.size();
  fit_and_score(F, y, n, Ft, yt, "", out);
  for (Index k : labels_) {
    if (k <= n) fit_and_score(F, y, k, Ft, yt, ".n" + std::to_string(k), out);
  }
  if (raw_) {
    // The raw inputs are the same at every evaluation: their fits (D = dim(x) normal equations, 2048 at the
    // augmentation sweep's largest d1: most of this probe's time) are made once and their values written again.
    std::uint64_t key = 0xcbf29ce484222325ULL;
    for (const auto* values : {&in.train.X, &in.test.X}) key = fingerprint(*values, key);
    key = fingerprint(yt, fingerprint(y, key));
    if (!raw_fits_ || raw_key_ != key) {
      Measurements fits;
      const MatD X = in.train.X.cast<double>(), Xt = in.test.X.cast<double>();
      fit_and_score(X, y, n, Xt, yt, ".raw", fits);
      for (Index k : labels_) {
        if (k <= n) fit_and_score(X, y, k, Xt, yt, ".raw.n" + std::to_string(k), fits);
      }
      raw_fits_ = std::move(fits);
      raw_key_ = key;
    }
    for (const auto& [metric, value] : raw_fits_->scalars()) out.scalar(metric, value);
  }
  if (auto it = in.features.find("constants"); !classify_ && it != in.features.end() && it->second.cols() >= 2) {
    const double p = it->second(0, 0), s2 = it->second(0, 1);
    out.scalar("linear_optimum", p / (p + s2));
  }
}

}  // namespace featurelab::contrastive_decoupling_pack
