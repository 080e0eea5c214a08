// Forward passes over the splits and the grid, one batched product each.
#include "training_probes.hpp"

#include "xor_geometry.hpp"

#include <featurelab/error.hpp>

#include <fmt/format.h>

#include <cmath>

namespace feature_amplification {

using namespace featurelab;

namespace {

Vec outputs_of(Model& model, ConstMatRef X, const std::string& who) {
  if (model.outputs() != 1) throw Error(who + " reads a binary model with one output");
  Mat out(X.rows(), 1);
  model.forward(X, out);
  return out.col(0);
}

double sign_of_label(double y) { return y > 0.5 ? 1.0 : -1.0; }

}  // namespace

void SplitAccuracy::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  if (in.train.size() > 0) {
    const Vec f = outputs_of(in.model, in.train.X, who);
    const VecD& noisy = column(in.train, "is_noisy", who);
    double clean_right = 0, clean_n = 0, noisy_wrong = 0, noisy_n = 0;
    for (Index i = 0; i < f.size(); ++i) {
      const bool right = (f(i) > 0) == (in.train.y(i) == 1);
      if (noisy(i) > 0.5) {
        noisy_wrong += right ? 0 : 1;
        noisy_n += 1;
      } else {
        clean_right += right ? 1 : 0;
        clean_n += 1;
      }
    }
    out.scalar("train_clean_acc", clean_right / std::max(1.0, clean_n));
    out.scalar("train_noisy_misclf", noisy_n > 0 ? noisy_wrong / noisy_n : 1.0);
    out.scalar("train_noise_rate", noisy_n / static_cast<double>(f.size()));
  }
  if (in.test.size() > 0) {
    const Vec f = outputs_of(in.model, in.test.X, who);
    const VecD& clean = column(in.test, "y_clean", who);
    const VecD& noisy = column(in.test, "is_noisy", who);
    auto cluster_it = in.test.meta.find("cluster");
    double err_noisy = 0, err_clean = 0;
    std::vector<double> cluster_err(4, 0), cluster_n(4, 0);
    for (Index i = 0; i < f.size(); ++i) {
      const bool plus = f(i) > 0;
      err_noisy += plus == (in.test.y(i) == 1) ? 0 : 1;
      const bool clean_wrong = plus != (clean(i) > 0.5);
      err_clean += clean_wrong ? 1 : 0;
      if (cluster_it != in.test.meta.end()) {
        const auto c = static_cast<std::size_t>(cluster_it->second(i));
        if (c < 4) {
          cluster_err[c] += clean_wrong ? 1 : 0;
          cluster_n[c] += 1;
        }
      }
    }
    const double n = static_cast<double>(f.size());
    const double rate = noisy.sum() / n;
    out.scalar("test_err_noisy", err_noisy / n);
    out.scalar("test_err_clean", err_clean / n);
    out.scalar("test_noise_rate", rate);
    out.scalar("test_err_minus_noise", err_noisy / n - rate);
    if (cluster_it != in.test.meta.end()) {
      for (std::size_t c = 0; c < 4; ++c) {
        out.scalar(fmt::format("test_err_clean_cluster{}", c), cluster_err[c] / std::max(1.0, cluster_n[c]));
      }
    }
  }
}

void Margins::measure(const ProbeInput& in, Measurements& out) {
  const std::string& who = name();
  const Vec f = outputs_of(in.model, in.train.X, who);
  const VecD& noisy = column(in.train, "is_noisy", who);
  double clean_min = 1e300, noisy_max = -1e300;
  for (Index i = 0; i < f.size(); ++i) {
    const double margin = sign_of_label(in.train.y(i)) * f(i);
    if (noisy(i) > 0.5) {
      noisy_max = std::max(noisy_max, margin);
    } else {
      clean_min = std::min(clean_min, margin);
    }
  }
  out.scalar("clean_min", clean_min);
  if (noisy_max > -1e300) out.scalar("noisy_max", noisy_max);
  auto it = in.features.find("centres");
  if (it != in.features.end() && it->second.rows() == 4 && it->second.cols() == in.train.dim()) {
    const Vec centres = outputs_of(in.model, it->second, who);
    const char* names[] = {"f_plus_mu1", "f_minus_mu1", "f_plus_mu2", "f_minus_mu2"};
    for (Index c = 0; c < 4; ++c) out.scalar(names[c], static_cast<double>(centres(c)));
  }
}

void LossStats::measure(const ProbeInput& in, Measurements& out) {
  const Vec f = outputs_of(in.model, in.train.X, "loss-stats");
  double loss = 0, min_slope = 1;
  for (Index i = 0; i < f.size(); ++i) {
    const double z = sign_of_label(in.train.y(i)) * f(i);
    loss += z > 0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z));
    min_slope = std::min(min_slope, 1.0 / (1.0 + std::exp(z)));  // −ℓ′(z), a safe sigmoid(−z)
  }
  out.scalar("loss", loss / static_cast<double>(std::max<Index>(1, f.size())));
  out.scalar("min_neg_derivative", min_slope);
}

void ReferenceAgreement::measure(const ProbeInput& in, Measurements& out) {
  const Mat& means = require_feature(in.features, name(), "means", "use data.use = \"xor-clusters\", which exposes it", 2,
                                     in.test.dim());  // μ1, μ2
  const Vec f = outputs_of(in.model, in.test.X, name());
  const Mat proj = in.test.X * means.transpose();  // n×2
  const Vec reference = proj.col(0).cwiseAbs() - proj.col(1).cwiseAbs();
  double agree = 0;
  for (Index i = 0; i < f.size(); ++i) agree += (f(i) > 0) == (reference(i) > 0) ? 1 : 0;
  out.scalar("agreement", agree / static_cast<double>(std::max<Index>(1, f.size())));
}

Schema DecisionGrid::schema() {
  Schema s;
  s.real("low", -1.6, "grid from low ...");
  s.real("high", 1.6, "... to high, in both coordinates");
  s.integer("resolution", 81, "points per axis").range(2, 1000);
  return s;
}

DecisionGrid::DecisionGrid(const Params& params, Context& context)
    : low_(params.real("low")), high_(params.real("high")), resolution_(params.integer("resolution")) {
  if (!(high_ > low_)) throw Error("decision-grid: high must exceed low");
  if (context.data.dim < 2) throw Error("decision-grid draws the first two coordinates: the data needs dim >= 2");
}

void DecisionGrid::measure(const ProbeInput& in, Measurements& out) {
  const Index r = resolution_;
  Mat grid = Mat::Zero(r * r, in.train.dim());
  auto coord = [&](Index i) { return low_ + (high_ - low_) * static_cast<double>(i) / static_cast<double>(r - 1); };
  for (Index row = 0; row < r; ++row) {
    for (Index col = 0; col < r; ++col) {
      grid(row * r + col, 0) = static_cast<Scalar>(coord(col));
      grid(row * r + col, 1) = static_cast<Scalar>(coord(r - 1 - row));  // top row = largest x2
    }
  }
  const Vec f = outputs_of(in.model, grid, "decision-grid");
  Table table;
  table.values.resize(r, r);
  for (Index row = 0; row < r; ++row) {
    for (Index col = 0; col < r; ++col) table.values(row, col) = f(row * r + col) > 0 ? 1.0 : -1.0;
  }
  for (Index i = 0; i < r; ++i) {
    table.col_names.push_back(fmt::format("{:.2f}", coord(i)));
    table.row_names.push_back(fmt::format("{:.2f}", coord(r - 1 - i)));
  }
  out.table("sign", std::move(table));
}

}  // namespace feature_amplification
