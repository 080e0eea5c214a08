// fashion-mnist's IDX loader on small files written by the test (gzip and plain), and its refusals of
// broken files.
#include "std_harness.hpp"

#include <catch2/catch.hpp>

#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace featurelab;
using std_test::harness;
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
  auto d = harness().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {});
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

TEST_CASE("fashion-mnist with classes = k keeps the images of labels 0 … k−1 in their order") {
  TempDir dir;
  write_split(dir.path, "train", 30);
  write_split(dir.path, "t10k", 12);
  auto d = harness().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}, {"classes", std::int64_t(4)}}, {});
  CHECK(d->spec().classes == 4);
  CHECK(d->available(Split::Train) == 12);  // labels 0–3 of 0, 1, …, 9, 0, 1, …: three times
  CHECK(d->available(Split::Test) == 6);    // 0–3 of 0–9, then 0 and 1 of 10 and 11
  Dataset test, train;
  Rng rng(2);
  d->sample(6, Split::Test, rng, test);
  const std::vector<int> labels{0, 1, 2, 3, 0, 1};
  for (Index i = 0; i < 6; ++i) {
    CHECK(test.y(i) == labels[static_cast<std::size_t>(i)]);
    CHECK(test.X(i, 5) == Approx((10.0 * test.y(i) / 255 - 0.5) / 0.5));
  }
  CHECK(test.classes == 4);
  d->sample(12, Split::Train, rng, train);
  CHECK(train.y.maxCoeff() == 3);
  for (Index i = 0; i < 12; ++i) CHECK(train.X(i, 0) == Approx((10.0 * train.y(i) / 255 - 0.5) / 0.5));
  CHECK_THROWS(harness().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}, {"classes", std::int64_t(11)}}, {}));
}

TEST_CASE("fashion-mnist refuses missing and broken files with the file and the fix") {
  TempDir dir;
  CHECK_THROWS_WITH(harness().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("apt-get install dataset-fashion-mnist"));
  write_split(dir.path, "train", 10);
  write_split(dir.path, "t10k", 10);
  // Truncated images.
  auto truncated = idx({10, 28, 28}, std::vector<std::uint8_t>(784 * 5, 0));
  write_gz(dir.path / "t10k-images-idx3-ubyte.gz", truncated);
  CHECK_THROWS_WITH(harness().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("t10k-images-idx3-ubyte.gz: truncated"));
  // Not IDX at all.
  write_gz(dir.path / "t10k-images-idx3-ubyte.gz", {'P', 'K', 3, 4, 5, 6, 7, 8});
  CHECK_THROWS_WITH(harness().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("not an IDX file"));
  // Labels that disagree with the images.
  write_split(dir.path, "t10k", 10);
  write_gz(dir.path / "t10k-labels-idx1-ubyte.gz", idx({9}, std::vector<std::uint8_t>(9, 1)));
  CHECK_THROWS_WITH(harness().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("9 labels for 10 images"));
  // Labels out of range.
  write_gz(dir.path / "t10k-labels-idx1-ubyte.gz", idx({10}, std::vector<std::uint8_t>(10, 42)));
  CHECK_THROWS_WITH(harness().make<Distribution>("fashion-mnist", {{"dir", dir.path.string()}}, {}),
                    Catch::Contains("outside 0"));
}
