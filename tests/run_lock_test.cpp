// One writer per run directory and per job (kernel/io/run_lock.hpp): a held lock is refused at once
// with BusyError naming the directory; shared holders go side by side.
#include "kernel/io/run_lock.hpp"
#include <featurelab/core/errors.hpp>

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <optional>
#include <string>

using namespace featurelab;
using Mode = DirectoryLock::Mode;

TEST_CASE("an exclusive directory lock refuses a second holder until it is released") {
  test::TempDir dir;
  std::optional<DirectoryLock> first;
  first.emplace(dir.path(), Mode::exclusive, "the run directory");
  CHECK(std::filesystem::exists(dir.path() / kLockFileName));
  try {
    DirectoryLock second(dir.path(), Mode::exclusive, "the run directory");
    FAIL("a second exclusive lock was granted");
  } catch (const BusyError& e) {
    const std::string message = e.what();
    CHECK(message.find(dir.path().string() + ": the run directory is in use by another featurelab process") == 0);
    CHECK(message.find("then run again") != std::string::npos);
  }
  CHECK_THROWS_AS(DirectoryLock(dir.path(), Mode::shared, "the run directory"), BusyError);
  first.reset();
  CHECK_NOTHROW(DirectoryLock(dir.path(), Mode::exclusive, "the run directory"));
}

TEST_CASE("shared directory locks go together and keep an exclusive one out") {
  test::TempDir dir;
  DirectoryLock a(dir.path(), Mode::shared, "the run directory");
  CHECK_NOTHROW(DirectoryLock(dir.path(), Mode::shared, "the run directory"));
  CHECK_THROWS_AS(DirectoryLock(dir.path(), Mode::exclusive, "the run directory"), BusyError);
}

TEST_CASE("a directory lock in a directory that does not exist is an error naming the file") {
  test::TempDir dir;
  try {
    DirectoryLock lock(dir.path() / "absent", Mode::exclusive, "job 3");
    FAIL("locked a file in a missing directory");
  } catch (const BusyError&) {
    FAIL("a missing directory is not busy");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("absent/.lock: cannot open the lock file") != std::string::npos);
  }
}

TEST_CASE("a directory lock knows when its directory was removed, moved or replaced") {
  test::TempDir dir;
  const auto run = dir.path() / "run";
  std::filesystem::create_directory(run);
  const DirectoryLock lock(run, Mode::exclusive, "the run directory");
  CHECK(lock.lost(run).empty());
  std::filesystem::rename(run, dir.path() / "moved");
  CHECK(lock.lost(run).find("run was removed during the run") != std::string::npos);
  CHECK(lock.lost(dir.path() / "moved").empty());  // the lock goes with its directory
  std::filesystem::create_directory(run);
  { const DirectoryLock other(run, Mode::exclusive, "the run directory"); }
  CHECK(lock.lost(run).find("run was replaced during the run") != std::string::npos);
}
