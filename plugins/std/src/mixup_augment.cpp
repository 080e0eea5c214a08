// Mixup's parameters: λ ~ Beta(alpha, alpha), drawn per batch or per pair.
#include "mixup_augment.hpp"

namespace featurelab::std_pack {

Schema MixupAugment::schema() {
  Schema s;
  s.real("alpha", 1.0, "λ ~ Beta(alpha, alpha); 1 = uniform mixup").above(0);
  s.choice("lambda_per", "batch", {"batch", "pair"}, "one λ per batch (the authors' code) or one per pair");
  declare_pairing(s);
  return s;
}

MixupAugment::MixupAugment(const Params& params, Context&)
    : PairMixing(params.real("alpha"), params.str("lambda_per") == "pair", params.str("pairing") == "permutation") {}

}  // namespace featurelab::std_pack
