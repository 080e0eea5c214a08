// Source ablations of multi-view patch data: noise only, signal only, one feature only.
#include "patch_sources_probe.hpp"

#include "class_feature_maxima.hpp"

#include <featurelab/error.hpp>

#include <algorithm>

namespace featurelab::midpoint_mixup_pack {

Schema PatchSourcesProbe::schema() {
  Schema s;
  s.real("learned_accuracy", 0.9,
         "signal-only accuracy, with one feature kept, on the class-y points that carry it, at which the class "
         "counts as using that feature")
      .range(0, 1);
  return s;
}

PatchSourcesProbe::PatchSourcesProbe(const Params& params, Context&)
    : learned_accuracy_(params.real("learned_accuracy")) {}

void PatchSourcesProbe::measure(const ProbeInput& in, Measurements& out) {
  const Mat& views = views_of(in, name());  // 2k×d, orthonormal rows v_{y,1}, v_{y,2}
  const Index k = views.rows() / 2, d = views.cols();
  const Dataset& test = in.test;
  if (test.size() == 0) throw Error("patch-sources measures on the test set: set data.test > 0");
  const Index n = test.size(), D = test.dim(), P = D / d;
  if (P * d != D) throw Error("patch-sources: the data dimension is not a multiple of the feature dimension");

  // Per point and patch: signal (own-class energy above half) or noise; the components along the two
  // own features, for the one-feature inputs.
  Mat noise_only = test.X, signal_only = test.X;
  Mat one_feature = Mat::Zero(2 * n, D);     // row 2i + ℓ: point i's signal patches along v_{y,ℓ} only
  std::vector<bool> carries(static_cast<std::size_t>(2 * n), false);
  for (Index i = 0; i < n; ++i) {
    const Index y = test.y(i);
    for (Index p = 0; p < P; ++p) {
      const auto patch = test.X.row(i).segment(p * d, d);
      const double energy = patch.squaredNorm();
      const double a1 = patch.dot(views.row(2 * y)), a2 = patch.dot(views.row(2 * y + 1));
      const bool signal = energy > 0 && a1 * a1 + a2 * a2 > 0.5 * energy;
      (signal ? noise_only : signal_only).row(i).segment(p * d, d).setZero();
      if (!signal) continue;
      const double along[2] = {a1, a2};
      for (Index l = 0; l < 2; ++l) {
        if (along[l] * along[l] <= 1e-6 * energy) continue;  // this patch does not carry v_{y,ℓ}
        one_feature.row(2 * i + l).segment(p * d, d) = static_cast<Scalar>(along[l]) * views.row(2 * y + l);
        carries[static_cast<std::size_t>(2 * i + l)] = true;
      }
    }
  }

  Mat outputs(n, in.model.outputs()), one_outputs(2 * n, in.model.outputs());
  double noise_right = 0, signal_right = 0;
  Mat per_class = Mat::Zero(k, 3);  // noise-only accuracy, then signal-only with v_{y,1}, v_{y,2} kept
  VecD class_count = VecD::Zero(k);
  Mat view_count = Mat::Zero(k, 2);
  in.model.forward(noise_only, outputs);
  for (Index i = 0; i < n; ++i) {
    const bool right = predicted_class(outputs, i) == test.y(i);
    noise_right += right ? 1 : 0;
    per_class(test.y(i), 0) += right ? 1 : 0;
    class_count(test.y(i)) += 1;
  }
  in.model.forward(signal_only, outputs);
  for (Index i = 0; i < n; ++i) signal_right += predicted_class(outputs, i) == test.y(i) ? 1 : 0;
  in.model.forward(one_feature, one_outputs);
  for (Index i = 0; i < n; ++i) {
    for (Index l = 0; l < 2; ++l) {
      if (!carries[static_cast<std::size_t>(2 * i + l)]) continue;
      const Index y = test.y(i);
      view_count(y, l) += 1;
      per_class(y, 1 + l) += predicted_class(one_outputs, 2 * i + l) == y ? 1 : 0;
    }
  }

  int both = 0, one = 0, none = 0;
  Table table;
  table.values.resize(k, 3);
  table.col_names = {"noise_only", "signal_only_v1", "signal_only_v2"};
  for (Index y = 0; y < k; ++y) {
    table.values(y, 0) = per_class(y, 0) / static_cast<Scalar>(std::max(1.0, class_count(y)));
    bool learned[2];
    for (Index l = 0; l < 2; ++l) {
      // A feature no test point of the class carries cannot be judged: not counted as used.
      const double acc = view_count(y, l) > 0 ? per_class(y, 1 + l) / view_count(y, l) : 0.0;
      table.values(y, 1 + l) = static_cast<Scalar>(acc);
      learned[l] = view_count(y, l) > 0 && acc >= learned_accuracy_;
    }
    (learned[0] && learned[1] ? both : (learned[0] || learned[1]) ? one : none)++;
    table.row_names.push_back("class " + std::to_string(y));
  }
  const double kk = static_cast<double>(k), nn = static_cast<double>(n);
  out.scalar("noise_only", noise_right / nn);
  out.scalar("signal_only", signal_right / nn);
  out.scalar("signal_both", both / kk);
  out.scalar("signal_one", one / kk);
  out.scalar("signal_none", none / kk);
  out.table("classes", std::move(table));
}

}  // namespace featurelab::midpoint_mixup_pack
