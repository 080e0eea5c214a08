// Reading pipelines: base composition, --set overrides, syntax errors with positions.
#include "kernel/config/pipeline_source.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

using namespace featurelab;

TEST_CASE("base files are merged underneath, the file itself wins") {
  test::TempDir dir;
  dir.write("common.toml", "[model]\nuse = \"two-layer\"\nwidth = 10\nbias = true\n[[probe]]\nuse = \"loss\"\n");
  const auto file = dir.write("main.toml",
                              "[experiment]\nbase = [\"common.toml\"]\n[model]\nwidth = 20\n"
                              "[[probe]]\nuse = \"accuracy\"\n");
  const PipelineSource source = load_pipeline(file, {});
  CHECK(source.table["model"]["use"].value<std::string>() == "two-layer");
  CHECK(source.table["model"]["width"].value<std::int64_t>() == 20);
  CHECK(source.table["model"]["bias"].value<bool>() == true);
  // Arrays of tables are replaced, not concatenated.
  REQUIRE(source.table["probe"].as_array()->size() == 1);
  CHECK(source.table["probe"][0]["use"].value<std::string>() == "accuracy");
  CHECK_FALSE(source.table["experiment"]["base"]);
  // Merged nodes remember their file and line.
  CHECK(where(*source.table["model"]["bias"].node()).find("common.toml:4") != std::string::npos);
  CHECK(where(*source.table["model"]["width"].node()).find("main.toml:4") != std::string::npos);
}

TEST_CASE("overrides replace values, create keys, and index lists") {
  test::TempDir dir;
  const auto file = dir.write("p.toml", "[model]\nuse = \"two-layer\"\n[[augment]]\nuse = \"mixup\"\n");
  const PipelineSource source =
      load_pipeline(file, {"model.width=200", "augment.0.alpha=0.4", "model.activation=relu", "data.use=\"x\""});
  CHECK(source.table["model"]["width"].value<std::int64_t>() == 200);
  CHECK(source.table["augment"][0]["alpha"].value<double>() == Approx(0.4));
  CHECK(source.table["model"]["activation"].value<std::string>() == "relu");
  CHECK(source.table["data"]["use"].value<std::string>() == "x");
  CHECK(where(*source.table["model"]["width"].node()) == "--set model.width");
}

TEST_CASE("bad overrides and bad TOML are located") {
  test::TempDir dir;
  const auto file = dir.write("p.toml", "[model]\nuse = \"two-layer\"\n");
  CHECK_THROWS_WITH(load_pipeline(file, {"augment.2.alpha=1"}), Catch::Contains("--set augment.2.alpha"));
  CHECK_THROWS_WITH(load_pipeline(file, {"model.width"}), Catch::Contains("expected KEY=VALUE"));
  // An index no array can have is a located error, not std::out_of_range (found by fuzz-set-override).
  CHECK_THROWS_AS(load_pipeline(file, {"augment.111111111111111111111111111110.alpha=1"}), ConfigError);
  CHECK_THROWS_WITH(load_pipeline(file, {"augment.111111111111111111111111111110.alpha=1"}),
                    Catch::Contains("--set augment.111111111111111111111111111110.alpha"));
  const auto bad = dir.write("bad.toml", "[model]\nuse = \"two-layer\nwidth = 3\n");
  CHECK_THROWS_WITH(load_pipeline(bad, {}), Catch::Contains("bad.toml:2") && Catch::Contains("TOML syntax error"));
  CHECK_THROWS_WITH(load_pipeline(dir.path() / "absent.toml", {}), Catch::Contains("no such pipeline file"));
  const auto cyclic = dir.write("a.toml", "[experiment]\nbase = [\"a.toml\"]\n");
  CHECK_THROWS_WITH(load_pipeline(cyclic, {}), Catch::Contains("cycle"));
  const auto missing = dir.write("m.toml", "[experiment]\nbase = [\"nope.toml\"]\n");
  CHECK_THROWS_WITH(load_pipeline(missing, {}), Catch::Contains("m.toml:2") && Catch::Contains("nope.toml"));
}
