// The limits of a job in its worker: --job-memory's checks and budget (execution/job_memory_limit.hpp),
// and the stop signals' exit codes (execution/stop_signals.hpp).
#include "execution/job_memory_limit.hpp"
#include "execution/stop_signals.hpp"

#include <catch2/catch.hpp>

#include <csignal>

using namespace featurelab;

TEST_CASE("a job memory limit refuses negative values and values whose bytes overflow") {
  CHECK(job_memory_problem(0).empty());
  CHECK(job_memory_problem(250).empty());
  CHECK(job_memory_problem(kMaxJobMemoryMiB).empty());
  CHECK(job_memory_problem(-1).find("-1 is not a size") == 0);
  CHECK(job_memory_problem(kMaxJobMemoryMiB + 1).find("more than a memory limit can hold") != std::string::npos);
  CHECK_FALSE(job_memory_problem(std::int64_t(1) << 44).empty());  // 2^44 MiB = 2^64 bytes: wrapped to 0 once
}

TEST_CASE("the memory limit of a job grows with the threads it may be handed, not its own budget") {
  const std::uint64_t one = job_memory_limit_bytes(250, 1);
  CHECK(one == std::uint64_t(250) << 20);
  const std::uint64_t per_thread = job_memory_limit_bytes(250, 2) - one;
  CHECK(per_thread > (1u << 20));                       // a stack and a first heap
  CHECK(job_memory_limit_bytes(250, 5) - one == 4 * per_thread);
  CHECK(job_memory_limit_bytes(static_cast<std::size_t>(kMaxJobMemoryMiB), 4096) > (std::uint64_t(1) << 63));  // no wrap
}

TEST_CASE("a stop signal sets the stop request and gives the exit code 128 + the signal") {
  install_stop_handlers();
  CHECK_FALSE(stop_requested_flag().load());
  std::raise(SIGTERM);
  CHECK(stop_requested_flag().load());
  CHECK(stop_signal() == SIGTERM);
  CHECK(stopped_exit_code() == 143);
  std::raise(SIGHUP);  // another kind: still a stop request; the first signal decides the code
  CHECK(stop_signal() == SIGTERM);
  restore_default_stop_handlers();
}
