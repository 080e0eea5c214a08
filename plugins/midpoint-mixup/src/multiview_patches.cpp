// Def. 4.1: signal patch pairs with mirrored coefficients, feature-noise patches elsewhere.
#include "multiview_patches.hpp"
#include "feature_basis.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <cmath>

namespace featurelab::midpoint_mixup_pack {

Schema MultiviewPatches::schema() {
  Schema s;
  s.integer("classes", 10, "number of classes k").min(2);
  s.integer("patches", 100, "patches per point P").min(2);
  s.integer("patch_dim", Automatic{"2k (the span of the features: an exact reduction, Gaussian init of std "
                                   "1/sqrt(d_virtual) stands for a larger d)"},
            "patch dimension d").min(1);
  s.integer("signal_pairs", 1, "C_P: signal patch pairs per point").min(1);
  s.real("delta1", 0.1, "δ1: β ~ U[δ1, δ2 − δ1]").min(0);
  s.real("delta2", 1.0, "δ2: the mirrored pair sums to δ2").above(0);
  s.real("delta3", Automatic{"0.25·k^-1.5 (our CPU calibration)"}, "δ3: lower noise coefficient").above(0);
  s.real("delta4", Automatic{"0.5·k^-1.5"}, "δ4: upper noise coefficient").above(0);
  s.integer("noise_classes", 1, "Q: distinct other classes whose features make the noise patches").min(0);
  s.boolean("same_noise", true, "all noise patches of a point are equal (Def. 4.1 read literally: γ has no patch "
                                "index); false = drawn per patch");
  s.choice("positions", "fixed", {"fixed", "random"},
           "signal patches: fixed (pair c at patches 2c, 2c+1) or random distinct positions per point");
  s.boolean("collapse_noise", false,
            "store the P − 2C_P noise patches, all equal when same_noise and positions = fixed, once with a count "
            "(DataShape::patch_counts): the same data for patch-two-layer, P/(2C_P + 1) times less work per sample");
  s.choice("test_views", "both", {"both", "one"},
           "test points: both (drawn as the training points) or one (a random one of the class's two features in "
           "every signal patch, each with its own coefficient U[δ1, δ2 − δ1]: the authors' released simulator, "
           "where a model that learned one feature per class is right on half of them)");
  declare_feature_basis(s);
  return s;
}

MultiviewPatches::MultiviewPatches(const Params& params, Context& context)
    : classes_(static_cast<int>(params.integer("classes"))),
      patches_(params.integer("patches")),
      pairs_(params.integer("signal_pairs")),
      delta1_(params.real("delta1")),
      delta2_(params.real("delta2")),
      noise_classes_(static_cast<int>(params.integer("noise_classes"))),
      same_noise_(params.boolean("same_noise")),
      random_positions_(params.str("positions") == "random"),
      collapse_noise_(params.boolean("collapse_noise")),
      one_view_tests_(params.str("test_views") == "one") {
  const double scale = std::pow(static_cast<double>(classes_), -1.5);
  delta3_ = params.real_or_auto("delta3").value_or(0.25 * scale);
  delta4_ = params.real_or_auto("delta4").value_or(0.5 * scale);
  dim_ = params.integer_or_auto("patch_dim").value_or(2 * classes_);
  if (2 * pairs_ > patches_) {
    throw Error("signal_pairs = " + std::to_string(pairs_) + " needs " + std::to_string(2 * pairs_) +
                " patches, but patches = " + std::to_string(patches_) + "; raise patches");
  }
  if (noise_classes_ > classes_ - 1) {
    throw Error("noise_classes = " + std::to_string(noise_classes_) + " but only " + std::to_string(classes_ - 1) +
                " other classes exist; lower it");
  }
  if (2 * delta1_ > delta2_) throw Error("β ~ U[δ1, δ2 − δ1] is empty: need 2·delta1 <= delta2");
  if (delta3_ > delta4_) throw Error("delta3 exceeds delta4; swap them");
  if (collapse_noise_ && (!same_noise_ || random_positions_)) {
    throw Error("collapse_noise = true stores the noise patches once, which needs them equal and in the same places "
                "in every point: set same_noise = true and positions = \"fixed\", or collapse_noise = false");
  }
  views_ = make_feature_basis(params.str("features"), classes_, dim_, context.rng);
}

double MultiviewPatches::dimension(const Params& params) {
  const double patch_dim = double(params.integer_or_auto("patch_dim").value_or(2 * params.integer("classes")));
  const double patches = double(params.integer("patches")), stored = double(2 * params.integer("signal_pairs") + 1);
  return (params.boolean("collapse_noise") ? std::min(patches, stored) : patches) * patch_dim;
}

DataShape MultiviewPatches::shape() const {
  DataShape shape;
  shape.dims = {stored_patches(), dim_};
  if (stored_patches() < patches_) {
    shape.patch_counts.assign(static_cast<std::size_t>(2 * pairs_), 1.0);
    shape.patch_counts.push_back(static_cast<double>(patches_ - 2 * pairs_));
  }
  return shape;
}

DataSpec MultiviewPatches::spec() const {
  DataSpec s;
  s.dim = stored_patches() * dim_;
  s.classes = classes_;
  s.shape = shape();
  s.meta = {"beta"};
  return s;
}

FeatureSet MultiviewPatches::features() const { return feature_set(views_); }

void MultiviewPatches::sample(Index n, Split split, Rng& rng, Dataset& out) {
  const Index stored = stored_patches();
  out.resize(n, stored * dim_);
  out.classes = classes_;
  out.shape = shape();
  const bool one_view = one_view_tests_ && split == Split::Test;
  out.X.setZero();
  VecD& beta_column = out.meta["beta"];
  beta_column.resize(n);
  std::vector<bool> is_signal(static_cast<std::size_t>(patches_));
  RowVec noise(dim_);
  for (Index i = 0; i < n; ++i) {
    const auto y = static_cast<Index>(rng.integer(0, classes_ - 1));
    out.y(i) = static_cast<std::int32_t>(y);
    auto patch = [&](Index p) { return out.X.row(i).segment(p * dim_, dim_); };
    std::vector<Index> positions;
    if (random_positions_) {
      const auto order = rng.permutation(patches_);
      positions.assign(order.begin(), order.begin() + 2 * pairs_);
    } else {
      for (Index p = 0; p < 2 * pairs_; ++p) positions.push_back(p);
    }
    std::fill(is_signal.begin(), is_signal.end(), false);
    // One-view test points: feature ℓ of the class in both patches of every pair.
    const Index view = one_view ? static_cast<Index>(rng.integer(0, 1)) : 0;
    for (Index c = 0; c < pairs_; ++c) {
      const double beta = rng.uniform(delta1_, delta2_ - delta1_);
      if (c == 0) beta_column(i) = beta;
      const Index p1 = positions[static_cast<std::size_t>(2 * c)], p2 = positions[static_cast<std::size_t>(2 * c + 1)];
      if (one_view) {
        patch(p1) = static_cast<Scalar>(beta) * views_.row(2 * y + view);
        patch(p2) = static_cast<Scalar>(rng.uniform(delta1_, delta2_ - delta1_)) * views_.row(2 * y + view);
      } else {
        patch(p1) = static_cast<Scalar>(beta) * views_.row(2 * y);
        patch(p2) = static_cast<Scalar>(delta2_ - beta) * views_.row(2 * y + 1);
      }
      is_signal[static_cast<std::size_t>(p1)] = is_signal[static_cast<std::size_t>(p2)] = true;
    }
    // Q distinct noise classes other than y.
    std::vector<Index> others;
    for (Index s = 0; s < classes_; ++s) {
      if (s != y) others.push_back(s);
    }
    rng.shuffle(others);
    others.resize(static_cast<std::size_t>(noise_classes_));
    auto draw_noise = [&] {
      noise.setZero();
      for (Index s : others) {
        noise += static_cast<Scalar>(rng.uniform(delta3_, delta4_)) * views_.row(2 * s);
        noise += static_cast<Scalar>(rng.uniform(delta3_, delta4_)) * views_.row(2 * s + 1);
      }
    };
    if (same_noise_) draw_noise();
    for (Index p = 0; p < stored; ++p) {  // collapsed: patch 2C_P stands for all P − 2C_P noise patches
      if (is_signal[static_cast<std::size_t>(p)]) continue;
      if (!same_noise_) draw_noise();
      patch(p) = noise;
    }
  }
}

}  // namespace featurelab::midpoint_mixup_pack
