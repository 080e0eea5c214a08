// The construction in double, scaled, cast into the network's blocks U and W at init.
#include "fourier_max_margin.hpp"
#include "fourier_construction.hpp"

#include <string>

namespace featurelab::fourier_icl_pack {

Schema FourierMaxMargin::schema() {
  Schema s;
  s.real("scale", 1.0, "multiplies every weight (the margin scales by scale^{k+1}; the normalised margin does not)").above(0);
  return s;
}

namespace {
Params with_theorem_width(const Params& params) {
  Params p = params;
  p.set("width", std::string(kAuto));
  p.set("init_scale", 0.0);
  return p;
}
}  // namespace

FourierMaxMargin::FourierMaxMargin(const Params& params, Context& context)
    : PolyOneHiddenLayer(with_theorem_width(params), context), scale_(params.real("scale")) {
}

void FourierMaxMargin::init(Rng&) {
  MatD U, W;
  max_margin_construction(k_, p_, U, W);
  block(U_) = (scale_ * U).cast<Scalar>();
  block(W_) = (scale_ * W).cast<Scalar>();
}

}  // namespace featurelab::fourier_icl_pack
