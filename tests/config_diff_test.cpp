// compare_configurations: the keys of two TOML files flattened (tables dotted, arrays of tables by index, other
// arrays and inline tables whole), floats in their shortest exact form, absent keys on either side, and errors
// that name the file and the place.
#include <featurelab/core/config_diff.hpp>

#include <featurelab/error.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace featurelab;

namespace {

std::filesystem::path write(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "featurelab-config-diff-test";
  std::filesystem::create_directories(dir);
  const auto file = dir / name;
  std::ofstream(file) << text;
  return file;
}

}  // namespace

TEST_CASE("config diff: differing, added and removed keys, in key order") {
  const auto a = write("a.toml", R"(
[model]
use = "two-layer"
width = 20
init_scale = 0.10000000000000001
[optimizer]
lr = 0.1
[[probe]]
use = "accuracy"
[[probe]]
use = "robust-accuracy"
radii = [0.1, 0.3]
)");
  const auto b = write("b.toml", R"(
[model]
use = "two-layer"
width = 40
init_scale = 0.1
[optimizer]
lr = 0.1
momentum = 0.9
[[probe]]
use = "accuracy"
)");
  const ConfigComparison c = compare_configurations(a, b);
  CHECK(c.left == "file " + a.string());
  REQUIRE(c.differences.size() == 4);
  CHECK(c.keys == 8);
  CHECK(c.differences[0].key == "model.width");
  CHECK(c.differences[0].left == "20");
  CHECK(c.differences[0].right == "40");
  CHECK(c.differences[1].key == "optimizer.momentum");
  CHECK_FALSE(c.differences[1].left);
  CHECK(c.differences[1].right == "0.9");
  CHECK(c.differences[2].key == "probe.1.radii");
  CHECK(c.differences[2].left == "[0.1, 0.3]");
  CHECK_FALSE(c.differences[2].right);
  CHECK(c.differences[3].key == "probe.1.use");
  CHECK(c.differences[3].left == "\"robust-accuracy\"");
  // 0.10000000000000001 is the double 0.1: the same value, no difference.
  CHECK(compare_configurations(a, a).differences.empty());
}

TEST_CASE("config diff: a file that is no TOML, and a path that is nothing, are refused by name") {
  const auto good = write("good.toml", "[model]\nwidth = 1\n");
  const auto bad = write("bad.toml", "[model]\nwidth = = 1\n");
  CHECK_THROWS_WITH(compare_configurations(good, bad), Catch::Contains("bad.toml:2:"));
  CHECK_THROWS_WITH(compare_configurations(good, good.parent_path() / "nothing-here"), Catch::Contains("does not exist"));
  CHECK_THROWS_WITH(compare_configurations(good, good.parent_path()), Catch::Contains("without run.json or config.toml"));
}
