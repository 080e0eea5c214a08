// Input files are read only when they are regular files of bounded size: a directory, a device or a
// named pipe is refused before anything is read (a pipe without a writer must not block).
#include "kernel/config/pipeline_source.hpp"
#include "kernel/io/bounded_read.hpp"

#include "temp_dir.hpp"

#include <featurelab/error.hpp>

#include <catch2/catch.hpp>

#include <sys/stat.h>

using namespace featurelab;
namespace fs = std::filesystem;

TEST_CASE("a regular file is read whole, up to the limit") {
  test::TempDir dir;
  const auto file = dir.write("p.toml", "[model]\nwidth = 3\n");
  CHECK(read_bounded_file(file, 100) == "[model]\nwidth = 3\n");
  CHECK_THROWS_WITH(read_bounded_file(file, 10), Catch::Contains("is 18 bytes, more than the"));
}

TEST_CASE("a directory, a device and a named pipe are refused before reading") {
  test::TempDir dir;
  CHECK_THROWS_WITH(read_bounded_file(dir.path(), kMaxPipelineFileBytes), Catch::Contains("not a regular file (a directory)"));
  if (fs::exists("/dev/zero")) {
    CHECK_THROWS_WITH(read_bounded_file("/dev/zero", kMaxPipelineFileBytes),
                      Catch::Contains("not a regular file (a character device)"));
  }
  const fs::path fifo = dir.path() / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_bounded_file(fifo, kMaxPipelineFileBytes), Catch::Contains("not a regular file (a named pipe)"));
}

TEST_CASE("a base file that is not a regular file is a located error at the line naming it") {
  test::TempDir dir;
  fs::create_directory(dir.path() / "adir");
  const fs::path fifo = dir.path() / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string base : {"adir", "fifo", "/dev/zero"}) {
    if (base == "/dev/zero" && !fs::exists(base)) continue;
    const auto file = dir.write("p.toml", "[experiment]\nbase = [\"" + base + "\"]\n[model]\nuse = \"two-layer\"\n");
    CHECK_THROWS_AS(load_pipeline(file, {}), ConfigError);
    CHECK_THROWS_WITH(load_pipeline(file, {}), Catch::Contains("p.toml:2:8") && Catch::Contains("experiment.base: ") &&
                                                   Catch::Contains(base + ": not a regular file"));
  }
  // The pipeline itself: one message, not the missing sections of an empty pipeline.
  CHECK_THROWS_WITH(load_pipeline(dir.path() / "adir", {}), Catch::Equals(
                        (dir.path() / "adir").string() + ": not a regular file (a directory)"));
}
