// Loading the four IDX files once per job, checking that images and labels agree.
#include "fashion_mnist_distribution.hpp"

#include "idx_file.hpp"

#include <featurelab/error.hpp>

namespace featurelab::std_pack {

void read_fashion_mnist(const std::filesystem::path& dir, const std::string& prefix, bool normalize, Mat& X, IVec& y) {
  std::filesystem::path images = dir / (prefix + "-images-idx3-ubyte.gz");
  std::filesystem::path labels = dir / (prefix + "-labels-idx1-ubyte.gz");
  if (!std::filesystem::exists(images)) images = dir / (prefix + "-images-idx3-ubyte");
  if (!std::filesystem::exists(labels)) labels = dir / (prefix + "-labels-idx1-ubyte");
  if (!std::filesystem::exists(images) || !std::filesystem::exists(labels)) {
    throw Error("fashion-mnist: no " + prefix + " images/labels in " + dir.string() +
                "; install them with: apt-get install dataset-fashion-mnist (or set data.dir)");
  }
  const IdxArray img = read_idx(images), lab = read_idx(labels);
  if (img.dims.size() != 3 || img.dims[1] != 28 || img.dims[2] != 28) {
    throw Error(images.string() + ": expected n×28×28 images");
  }
  if (lab.dims.size() != 1 || lab.dims[0] != img.dims[0]) {
    throw Error(labels.string() + ": " + std::to_string(lab.dims.empty() ? 0 : lab.dims[0]) + " labels for " +
                std::to_string(img.dims[0]) + " images in " + images.filename().string());
  }
  const Index n = img.dims[0];
  X.resize(n, 784);
  const Eigen::Map<const Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> raw(img.data.data(), n, 784);
  X = raw.cast<Scalar>() / Scalar(255);
  if (normalize) X.array() = (X.array() - Scalar(0.5)) / Scalar(0.5);
  y.resize(n);
  for (Index i = 0; i < n; ++i) {
    if (lab.data[static_cast<std::size_t>(i)] > 9) throw Error(labels.string() + ": label " + std::to_string(lab.data[i]) + " outside 0–9");
    y(i) = lab.data[static_cast<std::size_t>(i)];
  }
}

namespace {

// Keeps the rows whose label is below `classes`, in their order.
void keep_classes(Index classes, Mat& X, IVec& y) {
  Index kept = 0;
  for (Index i = 0; i < X.rows(); ++i) {
    if (y(i) >= classes) continue;
    if (kept != i) {
      X.row(kept) = X.row(i);
      y(kept) = y(i);
    }
    ++kept;
  }
  X.conservativeResize(kept, Eigen::NoChange);
  y.conservativeResize(kept);
}

}  // namespace

Schema FashionMnistDistribution::schema() {
  Schema s;
  s.string("dir", "/usr/share/datasets/fashion-mnist", "directory of the IDX files (Debian's dataset-fashion-mnist)");
  s.boolean("normalize", true, "map pixels to [−1, 1]: (x/255 − 0.5)/0.5, as Chidambaram et al.'s code");
  s.integer("classes", 10, "k: only the images of the first k classes (labels 0 … k−1; 6000 training and 1000 test images each), "
            "for studies over the number of classes").range(2, 10);
  return s;
}

FashionMnistDistribution::FashionMnistDistribution(const Params& params, Context&)
    : classes_(params.integer("classes")) {
  read_fashion_mnist(params.str("dir"), "train", params.boolean("normalize"), train_x_, train_y_);
  read_fashion_mnist(params.str("dir"), "t10k", params.boolean("normalize"), test_x_, test_y_);
  if (classes_ < 10) {
    keep_classes(classes_, train_x_, train_y_);
    keep_classes(classes_, test_x_, test_y_);
  }
}

double FashionMnistDistribution::dimension(const Params&) {  // 28 × 28 images
  return 784;
}

DataSpec FashionMnistDistribution::spec() const {
  DataSpec s;
  s.dim = 784;
  s.classes = static_cast<int>(classes_);
  s.shape.dims = {1, 28, 28};
  return s;
}

Index FashionMnistDistribution::available(Split split) const { return split == Split::Train ? train_x_.rows() : test_x_.rows(); }

void FashionMnistDistribution::sample(Index n, Split split, Rng& rng, Dataset& out) {
  const Mat& X = split == Split::Train ? train_x_ : test_x_;
  const IVec& y = split == Split::Train ? train_y_ : test_y_;
  if (n > X.rows()) {
    throw Error(name() + " has " + std::to_string(X.rows()) + " samples in this split, asked for " + std::to_string(n));
  }
  out.resize(n, 784);
  out.classes = static_cast<int>(classes_);
  out.shape.dims = {1, 28, 28};
  if (split == Split::Test) {
    out.X = X.topRows(n);
    out.y = y.head(n);
    return;
  }
  const auto order = rng.permutation(X.rows());
  for (Index i = 0; i < n; ++i) {
    out.X.row(i) = X.row(order[static_cast<std::size_t>(i)]);
    out.y(i) = y(order[static_cast<std::size_t>(i)]);
  }
}

}  // namespace featurelab::std_pack
