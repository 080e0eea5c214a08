// fashion-mnist's IDX loader on small files written by the test (gzip and plain), its refusals of
// broken files, and spurious-concat's channel concatenation.
#include "mm_harness.hpp"

#include <catch2/catch.hpp>

#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>

using namespace featurelab;
using mm_test::pack;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "fl-fmnist-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::vector<std::uint8_t> idx(std::vector<std::uint32_t> dims, const std::vector<std::uint8_t>& data) {
  std::vector<std::uint8_t> out{0, 0, 8, static_cast<std::uint8_t>(dims.size())};
  for (auto d : dims) {
    for (int shift : {24, 16, 8, 0}) out.push_back(static_cast<std::uint8_t>(d >> shift));
  }
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

void write_gz(const fs::path& file, const std::vector<std::uint8_t>& bytes) {
  gzFile f = gzopen(file.c_str(), "wb");
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

// n images whose pixels all equal 10·label, labels i % 10.
void write_split(const fs::path& dir, const std::string& prefix, std::uint32_t n) {
  std::vector<std::uint8_t> pixels, labels;
  for (std::uint32_t i = 0; i < n; ++i) {
    labels.push_back(static_cast<std::uint8_t>(i % 10));
    pixels.insert(pixels.end(), 784, static_cast<std::uint8_t>(10 * (i % 10)));
  }
  write_gz(dir / (prefix + "-images-idx3-ubyte.gz"), idx({n, 28, 28}, pixels));
  write_gz(dir / (prefix + "-labels-idx1-ubyte.gz"), idx({n}, labels));
}

}  // namespace

TEST_CASE("fashion-mnist reads IDX files and normalises pixels") {
  TempDir dir;
  write_split(dir.path, "train", 30);
  write_split(dir.path, "t10k", 12);
  auto d = pack().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {});
  CHECK(d->available(Split::Train) == 30);
  CHECK(d->available(Split::Test) == 12);
  CHECK(d->spec().shape.dims == std::vector<Index>{1, 28, 28});
  Dataset test;
  Rng rng(1);
  d->sample(12, Split::Test, rng, test);
  for (Index i = 0; i < 12; ++i) {
    CHECK(test.y(i) == i % 10);
    CHECK(test.X(i, 100) == Approx((10.0 * (i % 10) / 255 - 0.5) / 0.5));
  }
  Dataset train;
  d->sample(20, Split::Train, rng, train);
  for (Index i = 0; i < 20; ++i) CHECK(train.X(i, 0) == Approx((10.0 * train.y(i) / 255 - 0.5) / 0.5));
  CHECK_THROWS_WITH(d->sample(31, Split::Train, rng, train), Catch::Contains("has 30 samples"));
}

TEST_CASE("fashion-mnist refuses missing and broken files with the file and the fix") {
  TempDir dir;
  CHECK_THROWS_WITH(pack().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("apt-get install dataset-fashion-mnist"));
  write_split(dir.path, "train", 10);
  write_split(dir.path, "t10k", 10);
  // Truncated images.
  auto truncated = idx({10, 28, 28}, std::vector<std::uint8_t>(784 * 5, 0));
  write_gz(dir.path / "t10k-images-idx3-ubyte.gz", truncated);
  CHECK_THROWS_WITH(pack().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("t10k-images-idx3-ubyte.gz: truncated"));
  // Not IDX at all.
  write_gz(dir.path / "t10k-images-idx3-ubyte.gz", {'P', 'K', 3, 4, 5, 6, 7, 8});
  CHECK_THROWS_WITH(pack().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("not an IDX file"));
  // Labels that disagree with the images.
  write_split(dir.path, "t10k", 10);
  write_gz(dir.path / "t10k-labels-idx1-ubyte.gz", idx({9}, std::vector<std::uint8_t>(9, 1)));
  CHECK_THROWS_WITH(pack().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("9 labels for 10 images"));
  // Labels out of range.
  write_gz(dir.path / "t10k-labels-idx1-ubyte.gz", idx({10}, std::vector<std::uint8_t>(10, 42)));
  CHECK_THROWS_WITH(pack().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("outside 0"));
}

TEST_CASE("spurious-concat adds a scaled partner-class image in new channels, test gets zeros") {
  DataSpec spec;
  spec.dim = 3;
  spec.classes = 4;
  spec.shape.dims = {1, 3};
  auto t = pack().make<Transform>("spurious-concat", {}, spec);
  const DataSpec out = t->output_spec(spec);
  CHECK(out.dim == 6);
  CHECK(out.shape.dims == std::vector<Index>{2, 3});
  Dataset train, test;
  train.resize(40, 3);
  train.classes = 4;
  for (Index i = 0; i < 40; ++i) {
    train.y(i) = static_cast<std::int32_t>(i % 4);
    train.X.row(i).setConstant(static_cast<Scalar>(1 + i % 4));  // the class is readable from the pixels
  }
  test = train;
  Rng rng(3);
  t->apply(train, test, rng);
  REQUIRE(train.X.cols() == 6);
  std::map<Index, Index> partner;
  for (Index i = 0; i < 40; ++i) {
    const double g = train.meta.at("gamma")(i);
    const Index p = static_cast<Index>(train.meta.at("partner_class")(i));
    CHECK(p != train.y(i));
    CHECK(train.X(i, 0) == Approx(g * (1 + i % 4)));
    CHECK(train.X(i, 3) == Approx((1 - g) * (1 + p)));  // an image of the partner class
    if (partner.count(train.y(i))) CHECK(partner[train.y(i)] == p);  // fixed per class
    partner[train.y(i)] = p;
  }
  for (const auto& [c, p] : partner) CHECK(partner[p] == c);  // a perfect matching
  CHECK(test.X.rightCols(3).isZero());
  for (Index i = 0; i < 40; ++i) CHECK(test.X(i, 0) == Approx(1 + i % 4));  // test images unscaled
  spec.classes = 3;
  CHECK_THROWS_WITH(pack().make<Transform>("spurious-concat", {}, spec), Catch::Contains("even number of classes"));
}

TEST_CASE("per-access gamma: spurious-concat leaves the halves unscaled, spurious-gamma redraws γ each batch") {
  DataSpec spec;
  spec.dim = 3;
  spec.classes = 2;
  spec.shape.dims = {1, 3};
  auto t = pack().make<Transform>("spurious-concat", {{"gamma", std::string("per-access")}}, spec);
  const DataSpec out_spec = t->output_spec(spec);
  CHECK(std::find(out_spec.meta.begin(), out_spec.meta.end(), "gamma") == out_spec.meta.end());
  Dataset train, test;
  train.resize(20, 3);
  train.classes = 2;
  for (Index i = 0; i < 20; ++i) {
    train.y(i) = static_cast<std::int32_t>(i % 2);
    train.X.row(i).setConstant(static_cast<Scalar>(1 + i % 2));
  }
  test = train;
  Rng rng(5);
  t->apply(train, test, rng);
  for (Index i = 0; i < 20; ++i) {
    CHECK(train.X(i, 0) == Approx(1 + i % 2));
    CHECK(train.X(i, 3) == Approx(1 + (1 - i % 2)));  // the partner's image, unscaled
  }
  auto gamma = pack().make<Augment>("spurious-gamma", {{"gamma_low", 0.2}, {"gamma_high", 0.9}}, out_spec);
  Dataset a, b;
  gamma->apply(Batch::of(train), a, rng);
  gamma->apply(Batch::of(train), b, rng);
  for (Index i = 0; i < 20; ++i) {
    const Scalar g = a.X(i, 0) / train.X(i, 0);
    CHECK(g >= Scalar(0.2));
    CHECK(g <= Scalar(0.9));
    CHECK(a.X(i, 1) == Approx(g * train.X(i, 1)));
    CHECK(a.X(i, 4) == Approx((1 - g) * train.X(i, 4)));
    CHECK(a.y(i) == train.y(i));
  }
  CHECK((a.X - b.X).norm() > 0);  // redrawn at the next access
  DataSpec odd = spec;
  CHECK_THROWS_WITH(pack().make<Augment>("spurious-gamma", {}, odd), Catch::Contains("odd"));
}
