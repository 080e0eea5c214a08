// Every start ascends at once: one batched forward pass and one input gradient per step.
#include "functional_distance_probe.hpp"

#include <featurelab/rng.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::feature_averaging_pack {

namespace {

// f_FA on the rows of X (n×d) and its input gradient, for the side means μ+ and μ−.
struct AveragingNet {
  Vec mu_plus, mu_minus;  // d
  double n_plus = 0, n_minus = 0;

  Vec value(const Mat& X) const {
    const Vec p = X * mu_plus, q = X * mu_minus;
    return Scalar(n_plus) * p.cwiseMax(Scalar(0)) - Scalar(n_minus) * q.cwiseMax(Scalar(0));
  }
  Mat gradient(const Mat& X) const {
    const Vec p = X * mu_plus, q = X * mu_minus;
    Mat g(X.rows(), X.cols());
    for (Index i = 0; i < X.rows(); ++i) {
      g.row(i) = Scalar(p(i) > 0 ? n_plus : 0) * mu_plus.transpose() - Scalar(q(i) > 0 ? n_minus : 0) * mu_minus.transpose();
    }
    return g;
  }
};

// Each row of X scaled to norm r.
void onto_sphere(Mat& X, double r) {
  for (Index i = 0; i < X.rows(); ++i) {
    const double norm = X.row(i).norm();
    if (norm > 0) X.row(i) *= Scalar(r / norm);
  }
}

}  // namespace

Schema FunctionalDistanceProbe::schema() {
  Schema s;
  s.integer("random_starts", 16, "random starting points of the ascent, besides the centres and the averaged directions").min(0);
  s.integer("ascent_steps", 60, "projected gradient steps from each start").min(1);
  s.integer("search_steps", 24, "golden-section steps over log C").min(4);
  return s;
}

FunctionalDistanceProbe::FunctionalDistanceProbe(const Params& params, Context&)
    : random_starts_(params.integer("random_starts")),
      ascent_steps_(params.integer("ascent_steps")),
      search_steps_(params.integer("search_steps")) {}

void FunctionalDistanceProbe::measure(const ProbeInput& in, Measurements& out) {
  if (in.model.outputs() != 1) return;  // Theorem 4.6 is about Sec. 3.2's binary net
  const Clusters clusters = clusters_of(&in.features, name());
  const Index k = clusters.centres.rows(), d = clusters.centres.cols();
  const double radius = std::sqrt(static_cast<double>(d));
  AveragingNet fa;
  fa.mu_plus = Vec::Zero(d);
  fa.mu_minus = Vec::Zero(d);
  for (Index j = 0; j < k; ++j) {
    if (clusters.sides(j) > 0) {
      fa.mu_plus += clusters.centres.row(j).transpose();
      fa.n_plus += 1;
    } else {
      fa.mu_minus += clusters.centres.row(j).transpose();
      fa.n_minus += 1;
    }
  }
  if (fa.n_plus > 0) fa.mu_plus /= Scalar(fa.n_plus);
  if (fa.n_minus > 0) fa.mu_minus /= Scalar(fa.n_minus);

  // Starts: every centre, ±(μ+ − μ−) (the averaging attack's direction), ±(μ+ + μ−), and random
  // directions from a fixed seed (the same at every step, so the metric follows the network only).
  Mat starts(k + 4 + random_starts_, d);
  starts.topRows(k) = clusters.centres;
  starts.row(k) = (fa.mu_plus - fa.mu_minus).transpose();
  starts.row(k + 1) = -starts.row(k);
  starts.row(k + 2) = (fa.mu_plus + fa.mu_minus).transpose();
  starts.row(k + 3) = -starts.row(k + 2);
  Rng rng(20240607);
  rng.fill_normal(starts.bottomRows(random_starts_));
  onto_sphere(starts, radius);

  Mat f_out(starts.rows(), 1);
  const Mat ones = Mat::Ones(starts.rows(), 1);
  Mat df(starts.rows(), d);
  // sup over the sphere of |C f_FA − f|, by ascent on its sign from every start (the largest value seen).
  auto sup_gap = [&](double C) {
    Mat X = starts;
    double best = 0;
    for (Index step = 0; step <= ascent_steps_; ++step) {
      in.model.forward(X, f_out);
      const Vec h = Scalar(C) * fa.value(X) - f_out.col(0);
      best = std::max(best, static_cast<double>(h.cwiseAbs().maxCoeff()));
      if (step == ascent_steps_) break;
      in.model.input_gradient(X, ones, df);
      Mat g = Scalar(C) * fa.gradient(X) - df;
      for (Index i = 0; i < X.rows(); ++i) {
        const double norm = g.row(i).norm();
        if (norm == 0) continue;
        // A normalised step along the sphere, shrinking from 0.3·√d: sign(h)·∇h climbs |h|.
        const double length = 0.3 * radius * std::pow(0.93, static_cast<double>(step));
        X.row(i) += Scalar((h(i) >= 0 ? 1.0 : -1.0) * length / norm) * g.row(i);
      }
      onto_sphere(X, radius);
    }
    return best;
  };
  // C = 0: sup |f| on the sphere, the scale the distance is measured against.
  const double scale_f = sup_gap(0.0);
  // The least-squares C on the starts, then golden-section search over log C in [C0/16, 16 C0].
  in.model.forward(starts, f_out);
  const Vec a = fa.value(starts);
  const double aa = a.squaredNorm();
  const double C0 = aa > 0 ? std::max(1e-30, static_cast<double>(a.dot(f_out.col(0))) / aa) : 1e-30;
  double lo = std::log(C0 / 16), hi = std::log(C0 * 16);
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double x1 = hi - phi * (hi - lo), x2 = lo + phi * (hi - lo);
  double g1 = sup_gap(std::exp(x1)), g2 = sup_gap(std::exp(x2));
  for (Index it = 0; it < search_steps_; ++it) {
    if (g1 <= g2) {
      hi = x2;
      x2 = x1;
      g2 = g1;
      x1 = hi - phi * (hi - lo);
      g1 = sup_gap(std::exp(x1));
    } else {
      lo = x1;
      x1 = x2;
      g1 = g2;
      x2 = lo + phi * (hi - lo);
      g2 = sup_gap(std::exp(x2));
    }
  }
  double best = std::min(g1, g2), best_C = std::exp(g1 <= g2 ? x1 : x2);
  if (scale_f < best) {  // C → 0 is better than every C searched: f is no feature-averaging net at all
    best = scale_f;
    best_C = 0;
  }
  out.scalar("sup_distance", best);
  out.scalar("relative", scale_f > 0 ? best / scale_f : 1.0);
  out.scalar("scale", best_C);
}

}  // namespace featurelab::feature_averaging_pack
