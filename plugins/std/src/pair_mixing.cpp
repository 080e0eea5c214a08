// Pair mixing: partners, λ, mixed inputs and soft targets, into the trainer's reused buffer.
#include "pair_mixing.hpp"

namespace featurelab::std_pack {

void PairMixing::declare_pairing(Schema& s) {
  s.choice("pairing", "permutation", {"permutation", "index"},
           "partners: a random permutation of the batch (self-pairs allowed), or a uniform random index per "
           "sample (with replacement, as the authors' ManifoldMixupDataset)");
}

void PairMixing::apply(const Batch& in, Dataset& out, Rng& rng) {
  const Index n = in.n, k = in.classes;
  if (permutation_) {
    partner_ = rng.permutation(n);
  } else {
    partner_.resize(static_cast<std::size_t>(n));
    for (auto& j : partner_) j = rng.integer(0, n - 1);
  }
  out.resize(n, in.dim, k);
  out.classes = in.classes;
  const ConstMatMap X = in.X();
  const ConstIVecMap y = in.Y();
  // Soft targets of the inputs: their own if they have them (a second mixing), else one-hot.
  auto target = [&](Index i, Index c) -> Scalar {
    if (in.has_targets()) return in.T()(i, c);
    return y(i) == c ? Scalar(1) : Scalar(0);
  };
  double lam = lambda(rng);
  for (Index i = 0; i < n; ++i) {
    if (per_pair_ && i > 0) lam = lambda(rng);
    const Index j = partner_[static_cast<std::size_t>(i)];
    const auto l = static_cast<Scalar>(lam);
    out.X.row(i) = l * X.row(i) + (Scalar(1) - l) * X.row(j);
    out.y(i) = l >= Scalar(0.5) ? y(i) : y(j);
    for (Index c = 0; c < k; ++c) out.T(i, c) = l * target(i, c) + (Scalar(1) - l) * target(j, c);
  }
}

}  // namespace featurelab::std_pack
