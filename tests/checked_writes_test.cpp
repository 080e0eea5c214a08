// Every write of a job is checked: /dev/full stands in for a full disk (every write fails with
// ENOSPC), which needs no privileges and no timing.
#include "kernel/job/metrics_writer.hpp"
#include "kernel/io/atomic_file.hpp"
#include "kernel/io/reserved_file.hpp"

#include "temp_dir.hpp"

#include <featurelab/error.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace featurelab;
namespace fs = std::filesystem;

namespace {

std::string contents_of(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool have_dev_full() { return fs::exists("/dev/full"); }

}  // namespace

TEST_CASE("a metrics line that cannot be written fails the write naming the file and the reason") {
  if (!have_dev_full()) {
    WARN("skipped: no /dev/full on this system");
    return;
  }
  test::TempDir dir;
  fs::create_symlink("/dev/full", dir.path() / "metrics.jsonl");
  MetricsWriter metrics(dir.path());
  CHECK_THROWS_AS(metrics.scalar(0, "train.loss", 0.5), Error);
  CHECK_THAT(metrics.failure(), Catch::Contains("disk full while writing ") && Catch::Contains("metrics.jsonl") &&
                                    Catch::Contains("No space left on device"));
  // The history holds what the file holds: nothing.
  CHECK(metrics.history().empty());
  // Later writes fail with the first reason, even where they might succeed (a trainer that caught
  // the first exception does not get a metrics file with a hole in it).
  CHECK_THROWS_WITH(metrics.scalar(1, "train.loss", 0.4), Catch::Contains("No space left on device"));
  Table table;
  table.values.resize(1, 1);
  CHECK_THROWS_WITH(metrics.table(1, "probe.t", table), Catch::Contains("No space left on device"));
  CHECK(metrics.history().empty());
}

TEST_CASE("metrics lines that are written are in the file and in the history alike") {
  test::TempDir dir;
  {
    MetricsWriter metrics(dir.path());
    metrics.scalar(0, "train.loss", 0.5);
    metrics.scalar(10, "train.loss", 0.25);
    CHECK(metrics.failure().empty());
    CHECK(metrics.history().at("train.loss").size() == 2);
    metrics.close();
  }
  CHECK(contents_of(dir.path() / "metrics.jsonl") ==
        "{\"step\":0,\"metric\":\"train.loss\",\"value\":0.5}\n{\"step\":10,\"metric\":\"train.loss\",\"value\":0.25}\n");
}

TEST_CASE("a file that cannot be written atomically keeps its old content and leaves no temporary file") {
  if (!have_dev_full()) {
    WARN("skipped: no /dev/full on this system");
    return;
  }
  test::TempDir dir;
  const fs::path file = dir.path() / "summary.json";
  write_file_atomically(file, "old\n");
  // The temporary file is where the write goes: make it the full disk.
  fs::create_symlink("/dev/full", dir.path() / "summary.json.tmp");
  CHECK_THROWS_WITH(write_file_atomically(file, "new\n"),
                    Catch::Contains("disk full while writing ") && Catch::Contains("summary.json: No space left on device"));
  CHECK(contents_of(file) == "old\n");
  CHECK_FALSE(fs::exists(fs::symlink_status(dir.path() / "summary.json.tmp")));
}

TEST_CASE("a reserved file is written in its reserved space and leaves nothing behind when unused") {
  test::TempDir dir;
  const fs::path file = dir.path() / "summary.json";
  {
    ReservedFile reserved(file, 16 << 10);
    CHECK(fs::exists(dir.path() / "summary.json.tmp"));
    reserved.write("{\"status\": \"ok\"}\n");
  }
  CHECK(contents_of(file) == "{\"status\": \"ok\"}\n");  // cut to the text: none of the reservation left
  CHECK_FALSE(fs::exists(dir.path() / "summary.json.tmp"));
  {
    ReservedFile unused(dir.path() / "other.json", 16 << 10);
  }
  CHECK_FALSE(fs::exists(dir.path() / "other.json.tmp"));
  CHECK_FALSE(fs::exists(dir.path() / "other.json"));
}
