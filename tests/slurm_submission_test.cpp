// write_sbatch_scripts at the integers' end: a cluster may report MaxArraySize up to 2^64 − 1 (a misconfigured
// scontrol) and --jobs-per-task may be any count; the tasks and arrays are counted without a sum that wraps
// around, which once made zero arrays for a non-empty list and a silent success.
#include "temp_dir.hpp"

#include <featurelab/core/slurm_submission.hpp>

#include <catch2/catch.hpp>

#include <limits>

using namespace featurelab;

namespace {

SlurmSubmission three_jobs(const test::TempDir& dir) {
  SlurmSubmission s;
  s.run_dir = dir.path();
  s.run_name = "three";
  s.indices = {0, 1, 2};
  s.featurelab = {"featurelab"};
  return s;
}

}  // namespace

TEST_CASE("sbatch scripts at the largest array size and task size: every job in one array") {
  constexpr std::size_t kLargest = std::numeric_limits<std::size_t>::max();
  const test::TempDir dir;
  SlurmSubmission s = three_jobs(dir);
  const auto one_array = write_sbatch_scripts(s, kLargest);
  REQUIRE(one_array.size() == 1);
  CHECK(one_array[0].tasks == 3);
  CHECK(one_array[0].indices == std::vector<std::size_t>{0, 1, 2});
  s.jobs_per_task = kLargest;
  const auto one_task = write_sbatch_scripts(s, kLargest);
  REQUIRE(one_task.size() == 1);
  CHECK(one_task[0].tasks == 1);
  CHECK(one_task[0].indices == std::vector<std::size_t>{0, 1, 2});
  s.jobs_per_task = 1;
  const auto arrays_of_two = write_sbatch_scripts(s, 2);
  REQUIRE(arrays_of_two.size() == 2);
  CHECK(arrays_of_two[0].tasks == 2);
  CHECK(arrays_of_two[1].tasks == 1);
}
