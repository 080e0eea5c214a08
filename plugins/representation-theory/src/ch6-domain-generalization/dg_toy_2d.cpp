// Sampling of dg-toy-2d: uniform magnitudes, then the signs, whole matrices at a time.
#include "dg_toy_2d.hpp"
#include "dg_features.hpp"

namespace featurelab::representation_theory_pack {

Schema DgToy2d::schema() {
  Schema s;
  s.real("p_agree", 0.7, "in-domain probability that sign(x2) = y (the paper's Ber(0.7))").range(0, 1);
  s.real("p_agree_ood", 0.3, "out-of-domain probability that sign(x2) = y").range(0, 1);
  s.real("x2_scale", 1.0, "|x2| ~ x2_scale·U[0,1] (the paper: 1)").above(0);
  s.integer("ood", 20000, "size of the out-of-domain test set (features ood_inputs / ood_labels)").min(1);
  return s;
}

DgToy2d::DgToy2d(const Params& params, Context& context)
    : p_id_(params.real("p_agree")), p_ood_(params.real("p_agree_ood")), x2_scale_(params.real("x2_scale")) {
  draw(params.integer("ood"), p_ood_, context.rng, ood_);
}

double DgToy2d::dimension(const Params&) {  // the plane
  return 2;
}

DataSpec DgToy2d::spec() const {
  DataSpec s;
  s.dim = 2;
  s.classes = 2;
  return s;
}

void DgToy2d::draw(Index n, double p_agree, Rng& rng, Dataset& out) const {
  out.resize(n, 2);
  out.classes = 2;
  draw_labels(n, rng, out);
  rng.fill_uniform(out.X, 0.0, 1.0);
  for (Index i = 0; i < n; ++i) {
    const Scalar y = signed_label(out.y(i));
    out.X(i, 0) *= y;
    out.X(i, 1) *= static_cast<Scalar>(x2_scale_) * (rng.bernoulli(p_agree) ? y : -y);
  }
}

void DgToy2d::sample(Index n, Split, Rng& rng, Dataset& out) { draw(n, p_id_, rng, out); }

FeatureSet DgToy2d::features() const { return ood_features(ood_); }

}  // namespace featurelab::representation_theory_pack
