// One vocabulary for a job's state: the words, and what load_job makes of a summary.json.
#include <featurelab/core/job_state.hpp>
#include "results/run_records.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

using featurelab::JobState;

TEST_CASE("a job's state has one word, and summary.json records only the finished ones") {
  for (JobState state : {JobState::ok, JobState::failed, JobState::interrupted}) {
    CHECK(featurelab::recorded_state(featurelab::to_string(state)) == state);
  }
  CHECK(std::string(featurelab::to_string(JobState::unfinished)) == "unfinished");
  CHECK_FALSE(featurelab::recorded_state("running").has_value());  // read from locks, never written
  CHECK_FALSE(featurelab::recorded_state("done").has_value());
  CHECK_FALSE(featurelab::recorded_state("").has_value());
}

TEST_CASE("load_job: no summary is unfinished, an unknown status or a missing done marker is failed") {
  featurelab::test::TempDir dir;
  const featurelab::JobSpec spec;
  CHECK(featurelab::load_job(dir.path(), spec).status == JobState::unfinished);
  dir.write("summary.json", R"({"status": "finished"})");
  const auto unknown = featurelab::load_job(dir.path(), spec);
  CHECK(unknown.status == JobState::failed);
  CHECK_THAT(unknown.error, Catch::Contains("records no job state (ok, failed or interrupted) but 'finished'"));
  dir.write("summary.json", R"({"status": "ok"})");
  const auto unmarked = featurelab::load_job(dir.path(), spec);
  CHECK(unmarked.status == JobState::failed);
  CHECK(unmarked.error == "no done marker");
  dir.write("summary.json", R"({"status": "interrupted"})");
  CHECK(featurelab::load_job(dir.path(), spec).status == JobState::interrupted);
}
